"""A throwaway PostgreSQL server for the tests: a cluster made with ``initdb`` in a
temporary directory, listening on 127.0.0.1 and a free port, owned by an unprivileged
user (PostgreSQL refuses to run as root: as root the cluster runs as the ``postgres``
user that Debian's ``postgresql`` package makes), started once per test session and each
xdist worker, stopped and deleted at the end. docs/postgres.md tells an operator the same
steps for a lasting server.

Each test gets a schema of its own in the cluster's ``dh`` database (its URL sets the
``search_path``), dropped after it: nothing one test writes is seen by another.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from ports import free_port

__all__ = ["Cluster", "ClusterUnavailable", "start_cluster"]

USER = "dh"  # the cluster's superuser (a role, not a system user)
DATABASE = "dh"
# Fast and not durable: a test cluster is thrown away (benches/ use durable settings)
FAST = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


class ClusterUnavailable(RuntimeError):
    """PostgreSQL cannot be started here; the message says why."""


def _binaries() -> Path:
    """The directory of ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[4])
    )
    if not versions:
        raise ClusterUnavailable("no PostgreSQL server: apt-get install postgresql (pg_ctl)")
    return Path(versions[-1]).parent


def _owner() -> pwd.struct_passwd | None:
    """The system user the server runs as: ``None`` (this process's) unless this is
    root, then ``postgres``."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise ClusterUnavailable(
            "running as root and no 'postgres' user to run PostgreSQL as (PostgreSQL refuses "
            "root): apt-get install postgresql makes one"
        ) from None


class Cluster:
    """A running throwaway cluster: :meth:`url` of its database, :meth:`stop`."""

    def __init__(self, directory: Path, port: int, owner: pwd.struct_passwd | None) -> None:
        self.directory = directory
        self.port = port
        self._owner = owner
        self._schemas = 0

    def url(self, schema: str | None = None, database: str = DATABASE) -> str:
        """The URL of ``database``, with ``schema`` first in its search path."""
        base = f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"
        if schema is None:
            return base
        options = urllib.parse.quote(f"-csearch_path={schema},public", safe="")
        return f"{base}?options={options}"

    @contextlib.contextmanager
    def schema(self) -> Iterator[str]:
        """A fresh schema's URL, the schema dropped afterwards."""
        import psycopg

        self._schemas += 1
        name = f"test_{self._schemas}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE SCHEMA {name}")
        try:
            yield self.url(name)
        finally:
            with psycopg.connect(self.url(), autocommit=True) as admin:
                admin.execute(f"DROP SCHEMA {name} CASCADE")

    def reused_schema(self, name: str) -> str:
        """The URL of the schema ``name``, made once and emptied at each call (its rows
        deleted with its triggers off, its identities restarted): a fresh database for
        tests that only read and write rows, at a hundredth of a new schema's cost.
        Whatever else a test changed there (a trigger dropped) is for the caller to
        restore."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE SCHEMA IF NOT EXISTS {name}")
            tables = [
                row[0]
                for row in admin.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = %s", (name,)
                )
            ]
            sequences = [
                row[0]
                for row in admin.execute(
                    "SELECT sequencename FROM pg_sequences WHERE schemaname = %s", (name,)
                )
            ]
            with admin.transaction():
                admin.execute("SET LOCAL session_replication_role = replica")
                for table in tables:
                    admin.execute(f"DELETE FROM {name}.{table}")
                for sequence in sequences:
                    admin.execute(f"ALTER SEQUENCE {name}.{sequence} RESTART")
        return self.url(name)

    def run(self, *command: str) -> subprocess.CompletedProcess[str]:
        """Runs a PostgreSQL program of the cluster's binaries as its owner."""
        owner = self._owner
        return subprocess.run(
            [str(_binaries() / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            user=owner.pw_uid if owner else None,
            group=owner.pw_gid if owner else None,
            extra_groups=[] if owner else None,
            cwd=self.directory,
        )

    def stop(self) -> None:
        """Stops the server (at once: its data is thrown away) and deletes its files."""
        self.run("pg_ctl", "-D", str(self.directory / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)


def _check(done: subprocess.CompletedProcess[str], what: str, log: Path | None = None) -> None:
    if done.returncode != 0:
        more = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
        raise ClusterUnavailable(f"{what} failed: {done.stderr.strip()[-2000:]} {more}".strip())


def start_cluster(settings: tuple[str, ...] = FAST, tries: int = 3) -> Cluster:
    """Makes and starts a cluster with ``settings`` (``name=value``), its ``dh``
    database made with the ``citext`` extension; :class:`ClusterUnavailable` if it
    cannot."""
    try:
        import psycopg
    except ImportError:
        raise ClusterUnavailable("psycopg is not installed: pip install '.[postgres]'") from None
    owner = _owner()
    # as root, in /tmp: the user the server runs as must reach it (a TMPDIR under /root
    # would be out of its reach)
    parent = "/tmp" if owner is not None and os.path.isdir("/tmp") else None
    directory = Path(tempfile.mkdtemp(prefix="doubleholdem-pg-", dir=parent))
    if owner is not None:
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    cluster = Cluster(directory, 0, owner)
    try:
        data = str(directory / "data")
        initdb = ("initdb", "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8", "--locale=C")
        _check(cluster.run(*initdb, "--no-sync", "--no-instructions"), "initdb")
        log = directory / "log"
        for attempt in range(tries):
            cluster.port = free_port()
            options = " ".join(
                [f"-p {cluster.port}", "-c listen_addresses=127.0.0.1"]
                + [f"-c unix_socket_directories={directory}"]
                + [f"-c {setting}" for setting in settings]
            )
            started = cluster.run(
                "pg_ctl", "-D", data, "-l", str(log), "-w", "-o", options, "start"
            )
            if started.returncode == 0:
                break
            if attempt == tries - 1:  # a port taken meanwhile is tried again
                _check(started, "pg_ctl start", log)
        with psycopg.connect(cluster.url(database="postgres"), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {DATABASE}")
        with psycopg.connect(cluster.url(), autocommit=True) as admin:
            admin.execute("CREATE EXTENSION citext SCHEMA public")
    except BaseException:
        cluster.stop()
        raise
    return cluster
