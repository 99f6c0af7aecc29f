"""docs/reference/edit-log.md against the records a real review session writes: every field a record holds
is in the page's table, every action is named, and the schema version is the one the code writes.  A field
added to the records without a line in the docs fails here."""

from __future__ import annotations

import re
from pathlib import Path

from subcase.casing import Tag
from subcase.review import AcceptCue, EditLog, EditText, ReviewSession, SetTag, log_path_for, read_records
from subcase.review.editlog import EDITLOG_SCHEMA

from .conftest import form

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "edit-log.md"


def documented() -> tuple[set[str], str, int]:
    """(fields of the table, the `action` row's text, the schema version the page states)."""
    text = PAGE.read_text(encoding="utf-8")
    fields: set[str] = set()
    action_row = ""
    for line in text.splitlines():
        m = re.match(r"\| ((?:`\w+`(?:, )?)+) \|", line)
        if m:
            names = re.findall(r"`(\w+)`", m.group(1))
            fields.update(names)
            if names == ["action"]:
                action_row = line
    version = re.search(r"Schema version (\d+)", text)
    assert version, "the page states no schema version"
    return fields, action_row, int(version.group(1))


def test_the_edit_log_page_documents_every_field_a_session_writes(cased, srt_file, data_dir):
    doc, state = cased
    path = log_path_for(srt_file)
    s = ReviewSession(doc, state, srt_file, model_version="v-test", model_sha256="ab" * 32, log=EditLog(path))
    tag = SetTag((1, 1), Tag.T, form)
    s.perform(tag)
    s.revert(tag)
    s.perform(AcceptCue(0, state.threshold))
    s.perform(EditText(2, "OK 42 times!"))
    s.save()
    s.close()
    records = read_records(path)
    actions = {r["action"] for r in records}
    assert actions == {"changed_tag", "undo", "accepted", "edited_text", "saved"}

    fields, action_row, version = documented()
    assert version == EDITLOG_SCHEMA == records[0]["schema"]
    written = set().union(*(r.keys() for r in records))
    assert sorted(written - fields) == [], "fields the records hold that docs/reference/edit-log.md does not list"
    assert all(f'"{a}"' in action_row for a in actions | {"learned"})
    # context is documented field by field too (the WordContext table)
    context_keys = set().union(*(r["context"].keys() for r in records if r.get("context")))
    assert context_keys and context_keys <= fields


def test_each_record_holds_the_fields_of_its_type_in_editlog(cased, srt_file, data_dir):
    """The session builds every record from its TypedDict in review/editlog.py (mypy checks the building):
    what is written has the fields that type declares, its base fields first, in their declared order."""
    from typing import get_type_hints

    from subcase.review.editlog import RECORD_TYPES, RecordBase

    doc, state = cased
    path = log_path_for(srt_file)
    s = ReviewSession(doc, state, srt_file, model_version="v-test", model_sha256="ab" * 32, log=EditLog(path))
    tag = SetTag((1, 1), Tag.T, form)
    s.perform(tag)
    s.revert(tag)
    s.perform(EditText(2, "OK 42 times!"))
    s.save()
    s.close()
    base = list(get_type_hints(RecordBase))
    for record in read_records(path):
        declared = get_type_hints(RECORD_TYPES[record["action"]])
        assert list(record)[:len(base)] == base
        assert set(record) <= set(declared), sorted(set(record) - set(declared))
