"""Alembic's environment for cardroom's store.

It runs only on the connection :mod:`cardroom.store.migrate` hands in (in its transaction, under
its lock); there is no ``alembic.ini`` and no URL here.
"""

from alembic import context

from cardroom.store.schema import target_metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through cardroom.store.migrate")
context.configure(
    connection=connection,
    target_metadata=target_metadata(),
    render_as_batch=True,  # SQLite alters a table by copying it: autogenerate writes batch ops
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
