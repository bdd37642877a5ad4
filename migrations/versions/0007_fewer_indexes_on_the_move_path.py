"""indexes that serve the server's lookups, and no more, on the tables every move writes

Every handled move inserts an event and two outbox rows, and every index is written with them.
``ix_events_game_id`` repeats the leading column of the unique (game_id, seq) index. The outbox's
three single-column indexes (recipient, game_id, created_at) give way to the two the server looks
up by: a player's recent error notices (recipient, created_at) and the latest mails of a game to one
player (game_id, recipient).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 03:00:00.000000
"""

from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

OLD_OUTBOX = ('recipient', 'game_id', 'created_at')


def upgrade() -> None:
    op.drop_index('ix_events_game_id', table_name='events')
    for column in OLD_OUTBOX:
        op.drop_index(f'ix_outbound_messages_{column}', table_name='outbound_messages')
    op.create_index('ix_outbound_messages_recipient_created_at', 'outbound_messages', ['recipient', 'created_at'])
    op.create_index('ix_outbound_messages_game_id_recipient', 'outbound_messages', ['game_id', 'recipient'])


def downgrade() -> None:
    op.drop_index('ix_outbound_messages_game_id_recipient', table_name='outbound_messages')
    op.drop_index('ix_outbound_messages_recipient_created_at', table_name='outbound_messages')
    for column in OLD_OUTBOX:
        op.create_index(f'ix_outbound_messages_{column}', 'outbound_messages', [column])
    op.create_index('ix_events_game_id', 'events', ['game_id'])
