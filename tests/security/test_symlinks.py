"""Issue 9 §3: ingest reads only what lies in the folders it was given."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from citeproof.cli._ingest import ingest_command
from citeproof.sources import SourceStore, collect_files, find_files, ingest_paths

SECRET = "root:x:0:0:secret line that must never become a source"


def folder_with_links(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "passwd.txt").write_text(SECRET + "\n", "utf-8")
    (outside / "private").mkdir()
    (outside / "private" / "notes.txt").write_text(SECRET + " (folder)\n", "utf-8")
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "memo.txt").write_text("The Hartley memo.\n", "utf-8")
    (inbox / "passwd.txt").symlink_to(outside / "passwd.txt")
    (inbox / "private").symlink_to(outside / "private", target_is_directory=True)
    return inbox


def stored_texts(store: SourceStore) -> str:
    return "\n".join(record.source.text for record in store.current())


def test_ingest_does_not_follow_symlinks_out_of_its_folder_by_default(tmp_path: Path) -> None:
    inbox = folder_with_links(tmp_path)
    with SourceStore(tmp_path / "sources.db") as store:
        report = ingest_paths(store, [inbox])
        assert SECRET not in stored_texts(store)
        assert "Hartley memo" in stored_texts(store)
    assert sorted(link.path.name for link in report.not_followed) == ["passwd.txt", "private"]


def test_follow_symlinks_still_never_leaves_the_ingest_root(tmp_path: Path) -> None:
    inbox = folder_with_links(tmp_path)
    (inbox / "sub").mkdir()
    (inbox / "sub" / "inside.txt").write_text("A note inside the folder.\n", "utf-8")
    (inbox / "alias.txt").symlink_to(inbox / "sub" / "inside.txt")
    with SourceStore(tmp_path / "sources.db") as store:
        report = ingest_paths(store, [inbox], follow_symlinks=True)
        assert SECRET not in stored_texts(store)
    assert [link.path.name for link in report.not_followed] == ["passwd.txt", "private"]
    assert all("outside" in link.reason for link in report.not_followed)
    assert sum(result.path.name == "alias.txt" for result in report.results) == 1


def test_ingest_command_names_each_link_it_skipped(tmp_path: Path) -> None:
    inbox = folder_with_links(tmp_path)
    result = CliRunner().invoke(
        ingest_command, [str(inbox), "--store", str(tmp_path / "s.db")], terminal_width=400
    )
    assert result.exit_code == 0, result.output
    assert "passwd.txt: symbolic link, not followed (--follow-symlinks)" in result.output
    assert "private: symbolic link, not followed" in result.output
    assert "1 file ingested" in result.output


def test_a_link_into_a_sibling_folder_sharing_the_roots_name_is_not_followed(
    tmp_path: Path,
) -> None:
    # `in-private/` starts with the characters of the root `in`, but is not inside it: the
    # check compares folders, not string prefixes.
    inbox = tmp_path / "in"
    sibling = tmp_path / "in-private"
    inbox.mkdir()
    sibling.mkdir()
    (sibling / "notes.txt").write_text(SECRET + " (sibling)\n", "utf-8")
    (sibling / "deeper").mkdir()
    (sibling / "deeper" / "more.txt").write_text(SECRET + " (sibling folder)\n", "utf-8")
    (inbox / "memo.txt").write_text("The Hartley memo.\n", "utf-8")
    (inbox / "notes.txt").symlink_to(sibling / "notes.txt")
    (inbox / "deeper").symlink_to(sibling / "deeper", target_is_directory=True)
    with SourceStore(tmp_path / "sources.db") as store:
        report = ingest_paths(store, [inbox], follow_symlinks=True)
        assert SECRET not in stored_texts(store)
        assert "Hartley memo" in stored_texts(store)
    assert sorted(link.path.name for link in report.not_followed) == ["deeper", "notes.txt"]
    assert all(f"outside {inbox.resolve()}" in link.reason for link in report.not_followed)


def test_no_link_is_followed_by_default_not_even_one_inside_the_folder(tmp_path: Path) -> None:
    inbox = folder_with_links(tmp_path)
    (inbox / "alias.txt").symlink_to(inbox / "memo.txt")
    found = find_files([inbox])
    assert found.files == (inbox / "memo.txt",)
    assert [(link.path.name, link.reason) for link in found.not_followed] == [
        ("alias.txt", "symbolic link, not followed (--follow-symlinks)"),
        ("passwd.txt", "symbolic link, not followed (--follow-symlinks)"),
        ("private", "symbolic link, not followed (--follow-symlinks)"),
    ]
    with SourceStore(tmp_path / "sources.db") as store:  # ingest's default is the same
        report = ingest_paths(store, [inbox])
    assert [result.path for result in report.results] == [inbox / "memo.txt"]
    assert all("not followed (--follow-symlinks)" in link.reason for link in report.not_followed)


def test_hidden_files_and_folders_are_skipped_and_the_rest_read(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    (inbox / ".git").mkdir(parents=True)
    (inbox / ".git" / "notes.txt").write_text("A hidden folder's note.\n", "utf-8")
    (inbox / ".draft.txt").write_text("A hidden draft.\n", "utf-8")
    (inbox / "memo.txt").write_text("The Hartley memo.\n", "utf-8")
    (inbox / "photo.png").write_bytes(b"\x89PNG\r\n")
    found = find_files([inbox])
    assert (found.files, found.ignored, found.not_followed) == (
        (inbox / "memo.txt",),
        (inbox / "photo.png",),
        (),
    )
    # The older two-list form: the same files, the same ignored ones, no link followed.
    assert collect_files([inbox]) == ([inbox / "memo.txt"], [inbox / "photo.png"])


def test_followed_links_in_subfolders_stay_inside_and_a_loop_is_walked_once(
    tmp_path: Path,
) -> None:
    inbox = tmp_path / "in"
    (inbox / "sub").mkdir(parents=True)
    (inbox / "memo.txt").write_text("The Hartley memo.\n", "utf-8")
    (inbox / "sub" / "note.txt").write_text("A note.\n", "utf-8")
    (inbox / "sub" / "memo-again.txt").symlink_to(inbox / "memo.txt")
    (inbox / "sub" / "up").symlink_to(inbox, target_is_directory=True)  # back up the tree
    found = find_files([inbox], follow_symlinks=True)
    assert found.files == (
        inbox / "memo.txt",
        inbox / "sub" / "memo-again.txt",
        inbox / "sub" / "note.txt",
    )
    assert found.not_followed == ()


def test_a_folder_too_deep_to_list_is_named_and_the_rest_is_read(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "memo.txt").write_text("The Hartley memo.\n", "utf-8")
    # Nested folders whose full path is longer than the system allows (PATH_MAX, 4096): made
    # one level at a time from the folder above, as a mail archive unpacked deep can be.
    name = "d" * 250
    level = os.open(inbox, os.O_RDONLY)
    try:
        for _ in range(20):
            os.mkdir(name, dir_fd=level)
            below = os.open(name, os.O_RDONLY, dir_fd=level)
            os.close(level)
            level = below
    finally:
        os.close(level)
    found = find_files([inbox])
    assert found.files == (inbox / "memo.txt",)
    (refused,) = found.not_followed
    assert refused.reason == "cannot list the folder: File name too long"
    assert str(refused.path).startswith(str(inbox / name / name))
