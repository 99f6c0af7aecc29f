"""Truecasing: tags and case masks, the ONNX engine, cross-cue windows, modes, the pipeline."""

from .language import LANGUAGES, LanguageError, LanguageGuess
from .engine import CasingCancelled, CasingEngine, ModelInfo, WordPrediction
from .modes import Mode
from .onnx_session import ModelError
from .rules import Method
from .pipeline import CasedFile, apply_casing, case_cue_text, case_document, case_file, case_loaded, cue_context
from .stream import DocumentCasing, WordCasing, case_texts
from .tags import TAGS, TAG_NAMES, Tag, apply_tag, tag_of

__all__ = [
    "CasedFile", "CasingCancelled", "CasingEngine", "DocumentCasing", "LANGUAGES", "LanguageError", "LanguageGuess",
    "Method", "Mode", "ModelError", "ModelInfo", "TAGS",
    "TAG_NAMES", "Tag", "WordCasing", "WordPrediction", "apply_casing", "apply_tag", "case_cue_text", "case_document",
    "case_file", "case_loaded", "case_texts", "cue_context", "tag_of",
]
