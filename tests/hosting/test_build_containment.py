"""A build writes only its own folder: uploads through the real league server whose
package lines or file names aim outside it, or at javac's own options.

Each hostile package line is refused by name before anything is written (and nothing
appears where it aimed); a file name with a quote stays one file name in javac's
argument file, so the project builds as any other.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest

from hosted_helpers import decided, files_zip
from league_helpers import add_member, upload

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

BOT = """package {package};

public class Bot {{
    public int[] move(javafx.scene.control.Button[][] b, int roundsLeft, boolean isX) {{
        for (int i = 0; i < b.length; i++)
            for (int j = 0; j < b[i].length; j++)
                if (b[i][j].getText().isEmpty()) return new int[] {{i, j}};
        return null;
    }}
}}
"""


def _verdict(url: str, db: Path, team: str, files: dict[str, str]) -> dict[str, object]:
    token = add_member(db, team)
    answer = upload(url, files_zip(files), token)
    assert answer.status == 201, answer
    return decided(url, token)


@pytest.mark.parametrize(
    "package",
    [
        ".tmp.{mark}.Y",  # a leading dot: folder / "/tmp/..." is the host's /tmp
        "..{mark}",
        "{mark}..y",
        "{mark}\uff0ey",  # FULLWIDTH FULL STOP
        "{mark}\u2024y",  # ONE DOT LEADER
        "{mark}.y-z",  # a part that is no identifier
    ],
)
def test_a_package_line_that_is_no_package_name_is_refused_and_writes_nothing(
    built_league: tuple[str, Path], package: str
) -> None:
    url, db = built_league
    mark = "adjacency_escape_" + uuid.uuid4().hex[:10]
    named = package.format(mark=mark)
    try:
        version = _verdict(url, db, "team", {"src/Bot.java": BOT.format(package=named)})
    finally:  # today's code wrote there: what a failure left is removed
        aimed = Path("/tmp", mark)
        escaped = aimed.exists()
        shutil.rmtree(aimed, ignore_errors=True)
    assert not escaped, "the server wrote where the package line aimed"
    assert not list(db.parent.rglob(f"*{mark}*")), "a folder named by the package was made"
    assert version["status"] == "refused"
    assert "is not a Java package name" in str(version["detail"]), version["detail"]
    assert repr(named) in str(version["detail"])


def test_a_quote_in_a_file_name_stays_one_file_name_for_javac(
    built_league: tuple[str, Path],
) -> None:
    url, db = built_league
    files = {
        "src/Bot.java": BOT.format(package="team"),
        # Quoted without escapes, javac would read: the file `.../Help`, the option
        # -version, the file `x.java`; and fail on the first.
        'src/Help" -version "x.java': "package team;\nclass Helper {}\n",
        "src/New\nline.java": "package team;\nclass Other {}\n",
    }
    version = _verdict(url, db, "quoted", files)
    assert version["status"] == "accepted", version["detail"]
