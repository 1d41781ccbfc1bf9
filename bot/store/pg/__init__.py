"""The store on PostgreSQL (the optional `postgres` extra): several bot processes over one database.
Imported only when REFEREE_DATABASE_URL names a server; the SQLite default never loads psycopg."""

from bot.store.pg.connection import is_postgres_url
from bot.store.pg.store import PgStore

__all__ = ["PgStore", "is_postgres_url"]
