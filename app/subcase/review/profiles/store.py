"""Where profiles live: ``<data dir>/profiles/<name>.json`` (``SUBCASE_DATA_DIR`` overrides
the platform's user data folder, as for the edit logs).  Every write is atomic."""

from __future__ import annotations

from pathlib import Path

from subcase.subtitles.atomic import write_atomic

from .profile import Profile, ProfileError, valid_name
from ..storage import data_dir

SUFFIX = ".json"


def profiles_dir() -> Path:
    return data_dir() / "profiles"


def path_of(name: str) -> Path:
    if not valid_name(name):
        raise ProfileError(f"invalid profile name {name!r} (letters, digits, spaces, . ( ) + - _)")
    return profiles_dir() / f"{name}{SUFFIX}"


def names() -> list[str]:
    d = profiles_dir()
    if not d.is_dir():
        return []
    return sorted(p.name[:-len(SUFFIX)] for p in d.iterdir()
                  if p.name.endswith(SUFFIX) and not p.name.startswith(".") and valid_name(p.name[:-len(SUFFIX)]))


def exists(name: str) -> bool:
    return path_of(name).is_file()


def load(name: str, model_version: str | None = None) -> Profile:
    """The stored profile; with ``model_version``, one built for another model is refused."""
    path = path_of(name)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ProfileError(f"no profile named {name!r} (subcase profile list)") from None
    except OSError as exc:
        raise ProfileError(f"profile {name}: cannot read {path} ({exc.strerror or exc})") from None
    profile = Profile.from_bytes(raw, f"profile {name}")
    if profile.name != name:
        raise ProfileError(f"profile {name}: the file names another profile ({profile.name!r})")
    check_model(profile, model_version)
    return profile


def find(name: str) -> Profile | None:
    """The stored profile called ``name``, of whatever model, or None when there is none."""
    return load(name) if exists(name) else None


def check_model(profile: Profile, model_version: str | None) -> None:
    if model_version is not None and profile.model_version != model_version:
        raise ProfileError(f"profile {profile.name} was built for model {profile.model_version}, not "
                           f"{model_version}: rebuild it from its logs (subcase profile build)")


def save(profile: Profile) -> Path:
    path = path_of(profile.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_atomic(path, profile.to_bytes())
    except OSError as exc:
        raise ProfileError(f"profile {profile.name}: cannot write {path} ({exc.strerror or exc})") from None
    return path


def delete(name: str) -> None:
    path = path_of(name)
    try:
        path.unlink()
    except FileNotFoundError:
        raise ProfileError(f"no profile named {name!r}") from None


def export(name: str, dest: Path) -> Path:
    profile = load(name)
    dest = Path(dest)
    if dest.is_dir():
        dest = dest / f"{name}{SUFFIX}"
    try:
        write_atomic(dest, profile.to_bytes())
    except OSError as exc:
        raise ProfileError(f"cannot write ({exc.strerror or exc})", dest) from None
    return dest


def import_file(src: Path, model_version: str | None, name: str | None = None, replace: bool = False) -> Profile:
    """Validate a shared profile file and store it (under ``name`` if given)."""
    try:
        raw = Path(src).read_bytes()
    except OSError as exc:
        raise ProfileError(f"cannot read ({exc.strerror or exc})", src) from None
    profile = Profile.from_bytes(raw, str(src))
    check_model(profile, model_version)
    if name is not None:
        path_of(name)
        profile.name = name
    if exists(profile.name) and not replace:
        raise ProfileError(f"a profile named {profile.name!r} exists already (--replace, or --name)")
    save(profile)
    return profile
