"""Settings from the environment and `.env`: every bad value is a clear message naming its variable."""

from __future__ import annotations

import os
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.__main__ import main
from bot.errors import RefereeError
from bot.settings import BadSetting, Settings, load_settings
from bot.store import Store

VARIABLES = (
    "DISCORD_TOKEN",
    "REFEREE_DATA_DIR",
    "REFEREE_DATABASE",
    "REFEREE_DEV_GUILD_ID",
    "REFEREE_LOCALE",
    "REFEREE_CARDS_DIR",
    "REFEREE_RULES_DIR",
    "REFEREE_LOG_LEVEL",
    "REFEREE_DB_SYNC",
    "REFEREE_DATABASE_URL",
)


@pytest.fixture
def clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty working folder (no .env of the checkout) and no REFEREE_* variable set."""
    monkeypatch.chdir(tmp_path)
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    yield tmp_path


def test_an_unknown_log_level_is_refused_by_name(clean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_LOG_LEVEL", "garbage")
    with pytest.raises(BadSetting) as info:
        load_settings()
    text = info.value.bilingual()
    assert "REFEREE_LOG_LEVEL" in text and "garbage" in text and "WARNING" in text


def test_a_database_url_must_name_postgresql_and_its_password_is_never_shown(
    clean: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert load_settings().database_url_text is None  # the SQLite file by default
    monkeypatch.setenv("REFEREE_DATABASE_URL", "mysql://bob:hunter2@db/referee")
    with pytest.raises(BadSetting) as info:
        load_settings()
    text = info.value.bilingual()
    assert "REFEREE_DATABASE_URL" in text and "postgresql://" in text and "hunter2" not in text
    monkeypatch.setenv("REFEREE_DATABASE_URL", "postgresql://bob:hunter2@db/referee")
    settings = load_settings()
    assert settings.database_url_text == "postgresql://bob:hunter2@db/referee"
    assert "hunter2" not in repr(settings)


def test_log_levels_are_accepted_in_any_case(clean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for given_level, expected in (
        ("debug", "DEBUG"),
        ("Warning", "WARNING"),
        (" error ", "ERROR"),
        ("CRITICAL", "CRITICAL"),
    ):
        monkeypatch.setenv("REFEREE_LOG_LEVEL", given_level)
        assert load_settings().log_level == expected


def test_an_empty_database_setting_means_the_default_file(clean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_DATA_DIR", str(clean / "data"))
    monkeypatch.setenv("REFEREE_DATABASE", "")
    assert load_settings().database_file == clean / "data" / "referee.sqlite3"
    monkeypatch.setenv("REFEREE_DATABASE", "   ")
    assert load_settings().database_file == clean / "data" / "referee.sqlite3"


def test_empty_lines_in_dotenv_mean_unset_too(clean: Path) -> None:
    (clean / ".env").write_text("REFEREE_DATABASE=\nREFEREE_DATA_DIR=\nREFEREE_DEV_GUILD_ID=\n", encoding="utf-8")
    loaded = load_settings()
    assert loaded.database_file == clean / "data" / "referee.sqlite3"
    assert loaded.dev_guild_id is None


def test_a_dotenv_that_is_not_utf8_is_a_message_not_a_traceback(
    clean: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (clean / ".env").write_bytes(b"REFEREE_LOCALE=\xff\xfeen\n")
    with pytest.raises(RefereeError) as info:
        load_settings()
    assert ".env" in info.value.bilingual() and "UTF-8" in info.value.bilingual()
    assert main(["roll", "1d6"]) == 2
    assert ".env" in capsys.readouterr().err


def test_a_dotenv_that_is_a_fifo_or_a_folder_is_refused_at_once(clean: Path) -> None:
    os.mkfifo(clean / ".env")
    with pytest.raises(RefereeError) as info:
        load_settings()  # a FIFO without a writer would hang a plain read for ever
    assert ".env" in info.value.bilingual()
    (clean / ".env").unlink()
    (clean / ".env").mkdir()
    with pytest.raises(RefereeError):
        load_settings()


def test_a_huge_dotenv_is_refused_without_reading_it(clean: Path) -> None:
    with (clean / ".env").open("wb") as fh:
        fh.truncate(64 * 1024 * 1024)  # sparse: costs no disk
    with pytest.raises(RefereeError) as info:
        load_settings()
    assert ".env" in info.value.bilingual()


def test_a_readonly_or_overlong_data_folder_is_a_message(
    clean: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = clean / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    folders = [clean / ("x" * 300), clean.joinpath(*["y" * 250] * 20), clean / "a\x00b"]
    if not os.access(locked, os.W_OK):  # root may write anywhere
        folders += [locked / "data", locked]
    try:
        for folder in folders:
            if "\x00" in str(folder):  # only a .env can carry a NUL
                monkeypatch.delenv("REFEREE_DATA_DIR", raising=False)
                (clean / ".env").write_text(f"REFEREE_DATA_DIR={folder}\n", encoding="utf-8")
            else:
                monkeypatch.setenv("REFEREE_DATA_DIR", str(folder))
            with pytest.raises(RefereeError):
                Store.open(load_settings().database_file)
            assert main(["replay", "1"]) == 2
            assert "Traceback" not in capsys.readouterr().err
    finally:
        locked.chmod(0o700)


_values = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=40)
_printable = st.text(alphabet=string.printable, max_size=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.dictionaries(st.sampled_from(VARIABLES), st.one_of(_values, _printable)))
def test_any_environment_gives_settings_or_a_referee_error(
    clean: Path, monkeypatch: pytest.MonkeyPatch, values: dict[str, str]
) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    secret = "MTIz.secret."  # a token's value never appears in a message, whatever else is wrong
    for name, value in values.items():
        monkeypatch.setenv(name, secret + value if name == "DISCORD_TOKEN" else value)
    try:
        loaded = load_settings()
    except RefereeError as exc:
        assert exc.bilingual()
        assert secret not in exc.bilingual()
    else:
        assert isinstance(loaded, Settings)
        assert loaded.log_level in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
        assert str(loaded.database_file).strip()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.one_of(
        st.binary(max_size=200),
        st.lists(
            st.tuples(st.sampled_from(VARIABLES), st.one_of(_values, st.binary(max_size=20).map(repr))), max_size=6
        ).map(lambda pairs: "\n".join(f"{k}={v}" for k, v in pairs).encode("utf-8", "surrogatepass")),
    )
)
def test_any_dotenv_bytes_give_settings_or_a_referee_error(clean: Path, data: bytes) -> None:
    (clean / ".env").write_bytes(data)
    try:
        loaded = load_settings()
    except RefereeError as exc:
        assert exc.bilingual()
    else:
        assert isinstance(loaded, Settings)


_LIGHT_VALUES = st.one_of(
    st.sampled_from(["ja", "en", " en", "EN", "", "  ", "fr", "debug", "Warning", " info ", "CRITICAL", "loud"]),
    st.text(max_size=8),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(locale=_LIGHT_VALUES, level=_LIGHT_VALUES, in_dotenv=st.booleans())
def test_a_rolls_light_settings_agree_with_the_full_ones(
    clean: Path, monkeypatch: pytest.MonkeyPatch, locale: str, level: str, in_dotenv: bool
) -> None:
    """`referee roll` reads its language and log level without the settings model: whatever it accepts,
    the full settings give the same values; whatever they refuse, it leaves to them (bot/settings_source.py)."""
    from bot.settings_source import light_settings

    for name in ("REFEREE_LOCALE", "REFEREE_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    if "\x00" in locale + level or any(c in locale + level for c in "\n\r"):
        return  # not something an environment or one .env line can hold
    if in_dotenv:
        (clean / ".env").write_text(f'REFEREE_LOCALE="{locale}"\nREFEREE_LOG_LEVEL="{level}"\n', encoding="utf-8")
    else:
        (clean / ".env").unlink(missing_ok=True)
        monkeypatch.setenv("REFEREE_LOCALE", locale)
        monkeypatch.setenv("REFEREE_LOG_LEVEL", level)
    light = light_settings()
    try:
        full = load_settings()
    except RefereeError:
        assert light is None
        return
    if light is not None:
        assert (light.default_locale, light.log_level) == (full.default_locale, full.log_level)
