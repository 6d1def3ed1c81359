"""The test PostgreSQL server itself: it starts, answers, copies the template, restarts."""

from __future__ import annotations

import psycopg

from tests.support.postgres import PostgresServer


def test_a_query_runs_on_a_database_of_the_tests_own(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        version = conn.execute("SHOW server_version_num").fetchone()
        name = conn.execute("SELECT current_database()").fetchone()
    assert version is not None
    assert int(version[0]) >= 180000
    assert name is not None
    assert name[0].startswith("t_")


def test_each_test_gets_a_fresh_database(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE scratch (n int)")
    other = postgres_server.create_database(template="laurel_tpl")
    try:
        with psycopg.connect(postgres_server.url(other)) as conn:
            found = conn.execute("SELECT to_regclass('scratch')").fetchone()
        assert found == (None,)
    finally:
        postgres_server.drop_database(other)


def test_the_server_answers_again_after_a_restart(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    conn = psycopg.connect(postgres_url, autocommit=True)
    try:
        postgres_server.restart()
        try:
            conn.execute("SELECT 1")
            raised = False
        except psycopg.OperationalError:
            raised = True
        assert raised, "a connection from before the restart must be cut"
    finally:
        conn.close()
    with psycopg.connect(postgres_url) as fresh:
        assert fresh.execute("SELECT 1").fetchone() == (1,)
