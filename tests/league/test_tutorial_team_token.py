"""The course-bot tutorial keeps the team's token out of what ``git add -A`` commits: its
own commands, run in a fresh git repository as a team's checkout, leave the token in the
environment (where ``adjacency connect`` reads it) and in no file that git would add."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TUTORIAL = REPO / "docs" / "tutorials" / "course-bot.md"
SH = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)


def test_the_course_bot_tutorial_keeps_the_team_token_out_of_git_add(tmp_path: Path) -> None:
    text = TUTORIAL.read_text()
    block = next(b for b in SH.findall(text) if "add-bot my-team" in b)
    lines = block.splitlines()
    upto = next(i for i, line in enumerate(lines) if "add-bot my-team" in line)
    checkout, token_out = tmp_path / "team", tmp_path / "token-seen"
    checkout.mkdir()
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("ADJACENCY_LEAGUE_TOKEN", None)
    script = "\n".join(
        ["git init -q .", *lines[: upto + 1], f'printf %s "$ADJACENCY_LEAGUE_TOKEN" > {token_out}']
    )
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    token = token_out.read_text()
    assert token.startswith("adjl_") and len(token) > 20  # what connect will read
    subprocess.run(["git", "add", "-A"], cwd=checkout, check=True, timeout=60)
    staged = subprocess.run(["git", "grep", "--cached", "-c", "-F", token], cwd=checkout,
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert staged.returncode == 1 and staged.stdout == ""  # in no file git would commit
    for other in SH.findall(text):  # no later command writes it to a file or reads one
        assert "--token-file" not in other and "> my-team.token" not in other
    words = " ".join(text.split())
    assert "ADJACENCY_LEAGUE_TOKEN" in words and "`git add -A`" in words
    assert "must be listed in `.gitignore`" in words
