"""Hostile course bots, shared by the tests that upload them (built and checked only,
tests/hosting/test_hostile_submissions.py; played in live games,
tests/hosting/test_hostile_games.py): the Java of each attack, probes run by one bot
(:func:`together`), the zip a team uploads (:func:`project`), the league's own paths
filled into it (:func:`fill`; a native library built by the host's gcc), and a folder's
digest (:func:`tree_digest`) to prove that nothing outside the sandbox changed.

Attacks that would only be *seen* by their author (a read, a write, a connection) are
written as probes (:data:`PROBES`): the bot answers legally when the attack failed and
illegally (an occupied square) when it succeeded, so an accepted version, or a game that
ends on the board, proves the attack failed and says nothing of the host the team should
not see. The others (:data:`FAILURES`) stop the bot: a refusal in the check, a loss with
its reason in a game.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import json
import os
import subprocess
import tempfile
import uuid
import zipfile
from pathlib import Path

PROLOGUE = """import javafx.scene.control.Button;
import java.io.*;
import java.net.*;
import java.nio.file.*;

public class Bot {
    /** The first empty square, or the occupied corner when the attack worked. */
    static int[] answer(Button[][] b, boolean attackWorked) {
        if (attackWorked) {
            for (int i = 0; i < b.length; i++)
                for (int j = 0; j < b[i].length; j++)
                    if (!b[i][j].getText().isEmpty()) return new int[] {i, j};
        }
        for (int i = 0; i < b.length; i++)
            for (int j = 0; j < b[i].length; j++)
                if (b[i][j].getText().isEmpty()) return new int[] {i, j};
        return new int[] {0, 0};
    }

    public int[] move(Button[][] b, int roundsLeft, boolean isX) throws Exception {
        boolean worked = false;
"""
EPILOGUE = """
        return answer(b, worked);
    }
}
"""

RUN = f"{uuid.uuid4().int % 10**9:09d}"
"""This test process's own mark in the attacks' leftover commands (a fraction of a second
on their sleeps), so a test counts the leftovers of its own attacks only, never those of
another test process or league running the same attacks on the machine."""

DAEMON = f"sleep 1234.{RUN}"
"""The double-forked daemon's command (no process may run it once its sandbox ended)."""

PROBES = {
    "connect to the league's own port": (
        'try (Socket s = new Socket("127.0.0.1", PORT)) { worked = true; } catch (IOException e) {}'
    ),
    "connect to another loopback port": (
        'try (Socket s = new Socket("127.0.0.1", OTHER)) { worked = true; }'
        " catch (IOException e) {}"
    ),
    "read the league database": (
        'try { Files.readAllBytes(Paths.get("DB")); worked = true; } catch (IOException e) {}'
    ),
    "read another team's submission": (
        'try (var l = Files.list(Paths.get("BUILDS"))) { worked = l.count() > 0; }'
        " catch (IOException e) {}"
    ),
    "read the system's secrets": (
        'try { Files.readAllBytes(Paths.get("/etc/shadow")); worked = true; }'
        " catch (IOException e) {}"
    ),
    "write outside its temporary folder": (
        'for (String p : new String[] {"/box/evil", "/evil", "/usr/evil", "HOSTFILE"}) {'
        ' try { Files.writeString(Paths.get(p), "x"); worked = true; } catch (Exception e) {} }'
    ),
    "fill the disk": (
        'try (OutputStream o = new FileOutputStream("/tmp/fill")) {'
        " byte[] mb = new byte[1 << 20]; for (int i = 0; i < 100000; i++) o.write(mb);"
        " } catch (IOException e) {}"
    ),
    "allocate far past its memory": (
        "try { long[][] hog = new long[64][]; for (int i = 0; i < 64; i++)"
        " hog[i] = new long[1 << 24]; worked = hog.length > 0; } catch (OutOfMemoryError e) {}"
    ),
    "a double-forked daemon": (
        f'new ProcessBuilder("/bin/sh", "-c", "({DAEMON} &) &").start().waitFor();'
    ),
    "printing 100 MB": (
        'String line = "x".repeat(1 << 20); for (int i = 0; i < 100; i++) System.err.println(line);'
    ),
    "speak the protocol through native code": (
        # (a) The sandbox's own C compilers, at play; what one built is loaded.
        'Files.writeString(Paths.get("/tmp/speak.c"), NATIVE_SOURCE);'
        ' for (String cc : new String[] {"gcc", "cc", "/usr/bin/gcc", "clang", "tcc"}) { try {'
        ' Process p = new ProcessBuilder(cc, "-shared", "-fPIC", "-o", "/tmp/libcc.so",'
        ' "/tmp/speak.c").redirectErrorStream(true)'
        ".redirectOutput(ProcessBuilder.Redirect.DISCARD).start();"
        ' if (p.waitFor() == 0) { worked = true; System.load("/tmp/libcc.so"); }'
        " } catch (Throwable e) {} }"
        # (b) A real library, its bytes in the source, written to /tmp and loaded.
        ' Files.write(Paths.get("/tmp/libspeak.so"), java.util.Base64.getDecoder()'
        '.decode("NATIVE_LIBRARY"));'
        ' try { System.load("/tmp/libspeak.so"); worked = true; } catch (Throwable e) {}'
    ),
}
"""Attacks that fail in the sandbox: the bot goes on to answer legally (printing on
standard error is drained, its tail kept, and never ends a bot)."""

NATIVE_MOVE = "c1"
"""What the native code answers on the protocol's descriptor, never the bot's own move:
its own is the first empty square from the top row (rank 6 on the league's board)."""

NATIVE_C = (
    "#include <unistd.h>\n"
    "int JNI_OnLoad(void *vm, void *reserved) {\n"
    f'    write(1, "bestmove {NATIVE_MOVE}\\n", {len(NATIVE_MOVE) + 10});\n'
    "    return 0x00010008; /* JNI_VERSION_1_8 */\n"
    "}\n"
)
"""The C a JNI attack loads: once loaded, it writes a ``bestmove`` of its own on
standard output, the protocol's descriptor (the kit's runner keeps fd 1 for protocol
lines), before the Java bot answers."""


@functools.cache
def native_library() -> bytes:
    """:data:`NATIVE_C` built by the host's C compiler into a real shared library (the
    C and C++ kinds' builds need gcc, so a machine that runs the suite has it)."""
    with tempfile.TemporaryDirectory(prefix="adjacency-native-") as folder:
        source, library = Path(folder) / "speak.c", Path(folder) / "libspeak.so"
        source.write_text(NATIVE_C)
        command = ["gcc", "-shared", "-fPIC", "-O2", "-s", "-o", str(library), str(source)]
        subprocess.run(command, check=True, capture_output=True, timeout=60)
        return library.read_bytes()


FORK_SLEEP = f"sleep 1000.{RUN}"
"""What the fork bomb starts first and keeps starting (no process may run it once its
sandbox ended): the first is started before the bomb fills the process limit, so it
runs on any machine, however loaded."""

FAILURES = {
    "a fork bomb": (
        f'new ProcessBuilder("/bin/sh", "-c", "{FORK_SLEEP}").start();'
        ' new ProcessBuilder("/bin/sh", "-c", "f() { f | f & }; f").start();'
        " while (roundsLeft >= 0) { try {"
        f' new ProcessBuilder("/bin/sh", "-c", "{FORK_SLEEP}").start(); }}'
        " catch (IOException e) {} }",
        # Its forks meet the process limit: its CPU cap ends it, or the JVM can no longer
        # start a thread of its own first (which one comes first depends on the machine).
        ("s of CPU", "unable to create native thread"),
    ),
    "an endless loop": ("while (roundsLeft >= 0) { Math.sqrt(7); }", ("s of CPU",)),
    "sleeping for ever": ("Thread.sleep(Long.MAX_VALUE);", ("gave no move in the",)),
    "System.exit mid-game": ("System.exit(3);", ("exited with status",)),
}
"""Attacks that stop the bot, with what the check's refusal says of it (one of these
words)."""


def together(attacks: tuple[str, ...]) -> str:
    """One bot's body running each of ``attacks`` in a block of its own (so their local
    names never meet), naming on standard error each one after which an attack had
    worked (the first named is the one that worked)."""
    return "\n".join(
        f"{{ {PROBES[attack]} }} if (worked) System.err.println({json.dumps(attack + ' worked')});"
        for attack in attacks
    )


def fill(body: str, url: str, db: Path, host_file: Path) -> str:
    """``body`` with the league's paths and ports filled in: its port (``url``'s), another
    loopback port, its database, its builds' folder and a host file; and the native
    attack's C source and library (built only for a body that loads it)."""
    port = url.rsplit(":", 1)[1]
    builds = db.with_name(db.name + ".builds")
    if "NATIVE_LIBRARY" in body:
        library = base64.b64encode(native_library()).decode("ascii")
        source = NATIVE_C.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        body = body.replace("NATIVE_LIBRARY", library).replace("NATIVE_SOURCE", f'"{source}"')
    return (
        body.replace("PORT", port)
        .replace("OTHER", "22")
        .replace("DB", str(db))
        .replace("BUILDS", str(builds))
        .replace("HOSTFILE", str(host_file))
    )


def project(body: str, extra: dict[str, bytes] | None = None, when: str | None = None) -> bytes:
    """A course project's zip whose bot runs ``body`` on every move, or only on the moves
    where the Java condition ``when`` holds, before it answers (with ``extra`` files)."""
    attack = body if when is None else f"if ({when}) {{ {body} }}"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("src/Bot.java", PROLOGUE + "        " + attack + EPILOGUE)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def tree_digest(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Every file under ``folder`` (not under a name in ``skip``, which is never walked:
    the server may be removing a refused build there meanwhile) with its content's hash."""
    found: dict[str, str] = {}
    for where, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name not in skip]
        for name in files:
            path = Path(where) / name
            if name not in skip and path.is_file():
                found[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return dict(sorted(found.items()))
