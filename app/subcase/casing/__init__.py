"""Truecasing: tags and case masks, the ONNX engine, cross-cue windows, modes."""

from .document import DocumentCasing, WordCasing, apply_casing, case_document, case_texts
from .engine import CasingCancelled, CasingEngine, ModelInfo, WordPrediction
from .modes import Mode
from .session import ModelError
from .tags import TAGS, TAG_NAMES, Tag, apply_tag, tag_of

__all__ = [
    "CasingCancelled", "CasingEngine", "DocumentCasing", "Mode", "ModelError", "ModelInfo", "TAGS",
    "TAG_NAMES", "Tag", "WordCasing", "WordPrediction", "apply_casing", "apply_tag", "case_document",
    "case_texts", "tag_of",
]
