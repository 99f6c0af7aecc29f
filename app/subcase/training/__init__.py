"""Training pipeline (optional extra ``subcase[train]``): data, fine-tuning, ONNX export.

Nothing here is imported by the app or shipped in its installers.
"""
