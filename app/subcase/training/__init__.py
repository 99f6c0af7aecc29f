"""Training pipeline (optional extra ``subcase[train]``): data, fine-tuning, ONNX export.

The app never imports it (tests/test_architecture.py checks that), and neither
the wheel nor the PyInstaller bundle ships it: it runs from a source tree.
"""
