"""The GUI gets its icon and stylesheet from where the package is installed.

Under .ci/run that is the wheel's subcase/_data/resources: a wheel without
resources/ used to give a window with no icon and no stylesheet, silently.
"""

from __future__ import annotations

from subcase.paths import resource_path


def test_the_app_has_the_shipped_icon_and_stylesheet(qapp):
    from subcase.gui.application import make_app

    app = make_app()
    assert resource_path("icons/subcase.png").is_file(), resource_path("icons/subcase.png")
    assert not app.windowIcon().isNull()
    sheets = {resource_path(f"styles/{name}.qss").read_text(encoding="utf-8") for name in ("light", "dark")}
    assert app.styleSheet() in sheets, "the stylesheet is not one of the shipped ones"
