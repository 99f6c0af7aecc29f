"""Reads files straight out of a fetched snapshot (a bare git directory): no work tree is checked out."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ...errors import SubcaseError


class MirrorError(SubcaseError):
    """A source's snapshot is missing or unreadable."""


class Mirror:
    def __init__(self, mirrors: Path, repo: str):
        base = mirrors / repo.replace("/", "+") / "repo"
        self.git_dir = base / ".git" if (base / ".git").is_dir() else base
        if not self.git_dir.is_dir():
            raise MirrorError("not fetched (fetch github:%s first)" % repo, base)
        self.repo = repo
        self.commit = self._git("rev-parse", "HEAD").strip()
        listing = self._git("ls-tree", "-r", "-z", "--full-tree", "HEAD")
        self.blobs: dict[str, str] = {}
        for entry in listing.split("\0"):
            if not entry:
                continue
            meta, path = entry.split("\t", 1)
            mode, kind, sha = meta.split()
            if kind == "blob" and mode != "120000":     # symlinks are not followed
                self.blobs[path] = sha
        self._cat: subprocess.Popen[bytes] | None = None

    def _git(self, *args: str) -> str:
        done = subprocess.run(["git", "--git-dir", str(self.git_dir), *args], capture_output=True, check=False)
        if done.returncode:
            raise MirrorError(done.stderr.decode("utf-8", "replace").strip() or "git failed", self.git_dir)
        return done.stdout.decode("utf-8", "surrogateescape")

    def paths(self) -> list[str]:
        return sorted(self.blobs)

    def read(self, path: str) -> bytes:
        if self._cat is None:
            self._cat = subprocess.Popen(["git", "--git-dir", str(self.git_dir), "cat-file", "--batch"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._cat.stdin is not None and self._cat.stdout is not None
        self._cat.stdin.write(self.blobs[path].encode() + b"\n")
        self._cat.stdin.flush()
        header = self._cat.stdout.readline().split()
        if header[1:2] == [b"missing"]:       # files of 4 MiB and more are not in a snapshot
            return b""
        if len(header) < 3 or header[1] != b"blob":
            raise MirrorError(f"cannot read {path}", self.git_dir)
        data = self._cat.stdout.read(int(header[2]))
        self._cat.stdout.read(1)
        return data

    def close(self) -> None:
        if self._cat is not None:
            assert self._cat.stdin is not None
            self._cat.stdin.close()
            self._cat.wait()
            self._cat = None
