"""Truecasing: tags and case masks, the ONNX engine, cross-cue windows, modes, the pipeline."""

from .engine import CasingCancelled, CasingEngine, ModelInfo, WordPrediction
from .modes import Mode
from .onnx_session import ModelError
from .pipeline import CasedFile, apply_casing, case_document, case_file
from .stream import DocumentCasing, WordCasing, case_texts
from .tags import TAGS, TAG_NAMES, Tag, apply_tag, tag_of

__all__ = [
    "CasedFile", "CasingCancelled", "CasingEngine", "DocumentCasing", "Mode", "ModelError", "ModelInfo", "TAGS",
    "TAG_NAMES", "Tag", "WordCasing", "WordPrediction", "apply_casing", "apply_tag", "case_document",
    "case_file", "case_texts", "tag_of",
]
