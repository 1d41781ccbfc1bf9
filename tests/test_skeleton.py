"""The skeleton: catalogs, settings, data folders and `referee run` without a token."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import bilingual, catalog, normalize_locale, t
from bot.paths import DataFolderMissing, data_folder
from bot.settings import Settings
from bot.store import Store


def test_every_message_exists_in_both_languages_with_the_same_fields() -> None:
    ja, en = catalog("ja"), catalog("en")
    assert set(ja) == set(en), f"keys only in ja: {set(ja) - set(en)}; only in en: {set(en) - set(ja)}"
    import string

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for key in ja:
        assert fields(ja[key]) == fields(en[key]), key


def test_bilingual_puts_japanese_first() -> None:
    text = bilingual("common.no_token")
    assert text.index("DISCORD_TOKEN が") < text.index("DISCORD_TOKEN is")


def test_discord_locales_map_to_catalogs() -> None:
    assert normalize_locale("en-US") == "en"
    assert normalize_locale("ja") == "ja"
    assert normalize_locale("fr") == "en"
    assert normalize_locale(None) == "ja"
    assert t("common.unexpected", "en-GB") == "An unexpected error occurred."


def test_database_defaults_into_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path))
    assert Settings().database_file == tmp_path / "referee.sqlite3"


def test_data_folders_are_found_from_the_checkout() -> None:
    assert (data_folder("cards")).is_dir()
    assert (data_folder("rules")).is_dir()


def test_a_missing_data_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataFolderMissing) as info:
        data_folder("cards", tmp_path / "nowhere")
    assert "REFEREE_CARDS_DIR" in info.value.bilingual()
    assert "nowhere" in info.value.bilingual()


def test_run_without_a_token_explains_and_fails(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "REFEREE_DATA_DIR": str(tmp_path), "HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run"], capture_output=True, text=True, env=env, cwd=tmp_path, check=False
    )
    assert proc.returncode != 0
    assert "Developer Portal" in proc.stderr


def test_run_never_prints_the_token(tmp_path: Path) -> None:
    secret = "MTIzNDU2Nzg5.secret-token-value"
    env = {"PATH": "/usr/bin:/bin", "REFEREE_DATA_DIR": str(tmp_path), "HOME": str(tmp_path), "DISCORD_TOKEN": secret}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run"], capture_output=True, text=True, env=env, cwd=tmp_path, check=False
    )
    assert secret not in proc.stdout + proc.stderr


def test_a_bad_setting_is_named_with_its_value_not_a_traceback(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "REFEREE_DATA_DIR": str(tmp_path), "REFEREE_LOCALE": "fr"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "roll", "1d6"], capture_output=True, text=True, env=env, cwd=tmp_path, check=False
    )
    assert proc.returncode == 2
    assert "設定 REFEREE_LOCALE" in proc.stderr and "The setting REFEREE_LOCALE" in proc.stderr
    assert "“fr”" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_store_writes_every_move_to_disk_unless_the_admin_chooses_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    monkeypatch.delenv("REFEREE_DB_SYNC", raising=False)
    levels = {1: "NORMAL", 2: "FULL"}  # PRAGMA synchronous reports a number
    for setting, expected in ((None, "FULL"), ("normal", "NORMAL"), ("full", "FULL")):
        if setting is not None:
            monkeypatch.setenv("REFEREE_DB_SYNC", setting)
        mode = Settings().synchronous
        with Store.open(tmp_path / f"{setting}.sqlite3", synchronous=mode) as store:
            assert levels[store.db.execute("PRAGMA synchronous").fetchone()[0]] == expected
    with Store.open(tmp_path / "default.sqlite3") as store:
        assert levels[store.db.execute("PRAGMA synchronous").fetchone()[0]] == "FULL"


def test_a_bad_sync_setting_is_refused_by_name_by_a_command_that_uses_the_database(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "REFEREE_DATA_DIR": str(tmp_path), "REFEREE_DB_SYNC": "off"}
    command = [sys.executable, "-m", "bot", "game", "end", "1"]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert proc.returncode == 2
    assert "設定 REFEREE_DB_SYNC" in proc.stderr and "“off”" in proc.stderr
    assert not list(tmp_path.glob("*.sqlite3"))  # nothing was created


def test_a_roll_reads_only_its_language_and_log_level(tmp_path: Path) -> None:
    """A dice roll does not need the database: a bad database setting does not stop it (the commands that
    use the database refuse it, above); a bad language does."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "REFEREE_DB_SYNC": "off", "REFEREE_LOCALE": "en"}
    roll = [sys.executable, "-m", "bot", "roll", "1d6"]
    ran = subprocess.run(roll, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert ran.returncode == 0 and "total" in ran.stdout
    env["REFEREE_LOCALE"] = "fr"
    bad = subprocess.run(roll, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert bad.returncode == 2 and "REFEREE_LOCALE" in bad.stderr
