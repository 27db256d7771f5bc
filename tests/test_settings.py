"""Settings: defaults, environment variables, arguments, and clear errors for bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import ConfigError, Settings


def test_environment_then_arguments_override_defaults() -> None:
    env = {
        "CITESYNTH_MODEL": "extractive",
        "CITESYNTH_MODE": "deep",
        "CITESYNTH_TIMEOUT": "12.5",
        "CITESYNTH_PROMPTS": "my-prompts",
        "CITESYNTH_CACHE_TTL": "0",
        "CITESYNTH_NOT_FOUND_BELOW": "0.3",
        "CITESYNTH_REPORT_WORDS": "800",
    }
    settings = Settings.from_env(env, mode="detailed", model=None)
    assert settings.model == "extractive" and settings.mode == "detailed"
    assert settings.timeout == 12.5 and settings.prompts_dir == Path("my-prompts")
    assert settings.cache_ttl == 0 and settings.not_found_below == 0.3
    assert settings.report_words == 800
    assert Settings.from_env({}).model == "auto"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"CITESYNTH_MODE": "fast"}, "mode must be simple, detailed or deep"),
        ({"CITESYNTH_TIMEOUT": "soon"}, "CITESYNTH_TIMEOUT must be a number"),
        ({"CITESYNTH_TIMEOUT": "-1"}, "must not be negative"),
        ({"CITESYNTH_NOT_FOUND_BELOW": "2"}, "not_found_below must be within 0..1"),
        ({"CITESYNTH_REPORT_WORDS": "10"}, "report_words must be at least 50"),
    ],
)
def test_bad_values_name_the_setting(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_a_settings_file_sits_between_defaults_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "citesynth.toml").write_text(
        'store = "postgresql://me@db/docs?schema=team"\n'
        'exclude = ["*.log", "build/**"]\n'
        "depth = 50\nstrict = true\nalpha = 0.25\n"
    )
    read = Settings.from_env({})
    assert read.store == "postgresql://me@db/docs?schema=team"
    assert read.exclude == ("*.log", "build/**")
    assert (read.depth, read.strict, read.alpha) == (50, True, 0.25)
    assert Settings.from_env({"CITESYNTH_DEPTH": "70"}).depth == 70  # the environment wins
    assert Settings.from_env({}, depth=90).depth == 90  # and arguments win over both

    other = tmp_path / "team.toml"
    other.write_text('model = "extractive"\n')
    assert Settings.from_env({"CITESYNTH_CONFIG": str(other)}).model == "extractive"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("stor = 'x'\n", r"citesynth.toml: unknown setting 'stor'; known: .*store"),
        ("store = \n", "is not valid TOML"),
        ("[store]\nurl = 'x'\n", "store must be a value, not a table"),
        ("depth = 'deep'\n", r"citesynth.toml: depth must be a number, got 'deep'"),
    ],
)
def test_a_bad_settings_file_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "citesynth.toml").write_text(content)
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({})
    with pytest.raises(ConfigError, match="cannot read the settings file"):
        Settings.from_env({"CITESYNTH_CONFIG": str(tmp_path / "missing.toml")})
