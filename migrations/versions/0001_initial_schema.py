"""The initial schema: games, members, characters, turns, posts and their revisions and orders,
resolutions (with what undo needs), the outbox, the audit log and the tournament ledger.

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 19:12:21.583709
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('games',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('channel_key', sa.String(length=100), nullable=False),
    sa.Column('guild_key', sa.String(length=100), nullable=True),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('ruleset', sa.String(length=20), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games')),
    sa.UniqueConstraint('channel_key', name=op.f('uq_games_channel_key'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_status_created_at_id'), ['status', 'created_at', 'id'], unique=False)

    op.create_table('audit_log',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=True),
    sa.Column('actor', sa.String(length=100), nullable=False),
    sa.Column('action', sa.String(length=80), nullable=False),
    sa.Column('detail', sa.JSON(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_audit_log_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_log_game_id_at_id'), ['game_id', 'at', 'id'], unique=False)

    op.create_table('characters',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('name_key', sa.String(length=200), nullable=False),
    sa.Column('owner', sa.String(length=100), nullable=True),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('sheet', sa.JSON(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('missed_turns', sa.Integer(), nullable=False),
    sa.Column('controller', sa.String(length=100), nullable=True),
    sa.Column('gm_controlled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_characters_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_characters')),
    sa.UniqueConstraint('game_id', 'name_key', name=op.f('uq_characters_game_id_name_key'))
    )
    with op.batch_alter_table('characters', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_characters_game_id_created_at_id'), ['game_id', 'created_at', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_characters_owner'), ['owner'], unique=False)

    op.create_table('ledger',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('player', sa.String(length=100), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_ledger_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger'))
    )
    with op.batch_alter_table('ledger', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ledger_player_at_id'), ['player', 'at', 'id'], unique=False)

    op.create_table('memberships',
    sa.Column('game_id', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.String(length=100), nullable=False),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_memberships_game_id_games')),
    sa.PrimaryKeyConstraint('game_id', 'user_id', 'role', name=op.f('pk_memberships'))
    )
    with op.batch_alter_table('memberships', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_memberships_user_id_game_id'), ['user_id', 'game_id'], unique=False)

    op.create_table('outbox',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=True),
    sa.Column('dest_kind', sa.String(length=20), nullable=False),
    sa.Column('dest_key', sa.String(length=100), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('dedupe_key', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_outbox_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox')),
    sa.UniqueConstraint('dedupe_key', name=op.f('uq_outbox_dedupe_key'))
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_game_id_created_at_id'), ['game_id', 'created_at', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_sent_at_created_at_id'), ['sent_at', 'created_at', 'id'], unique=False)

    op.create_table('turns',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('paused', sa.Boolean(), nullable=False),
    sa.Column('paused_remaining_us', sa.BigInteger(), nullable=True),
    sa.Column('reminders_sent', sa.Integer(), nullable=False),
    sa.Column('alarm_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('pending', sa.JSON(), nullable=False),
    sa.Column('npc_commitment', sa.String(length=64), nullable=True),
    sa.Column('npc_sealed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('npc_salt', sa.String(length=128), nullable=True),
    sa.Column('npc_canonical', sa.Text(), nullable=True),
    sa.Column('npc_revealed', sa.Boolean(), nullable=False),
    sa.Column('gm_inputs', sa.JSON(), nullable=False),
    sa.Column('gm_answers', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_turns_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_turns'))
    )
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_turns_status_paused_alarm_at'), ['status', 'paused', 'alarm_at'], unique=False)
        batch_op.create_index('uq_turns_game_id_number', ['game_id', 'number'], unique=True, sqlite_where=sa.text("status <> 'void'"), postgresql_where=sa.text("status <> 'void'"))

    op.create_table('posts',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=False),
    sa.Column('turn_id', sa.String(length=64), nullable=False),
    sa.Column('author', sa.String(length=100), nullable=False),
    sa.Column('channel_key', sa.String(length=100), nullable=False),
    sa.Column('message_key', sa.String(length=100), nullable=False),
    sa.Column('secret', sa.Boolean(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('deleted', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('reply_key', sa.String(length=100), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_posts_game_id_games')),
    sa.ForeignKeyConstraint(['turn_id'], ['turns.id'], name=op.f('fk_posts_turn_id_turns')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_posts')),
    sa.UniqueConstraint('channel_key', 'message_key', name=op.f('uq_posts_channel_key_message_key'))
    )
    with op.batch_alter_table('posts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_posts_turn_id_created_at_id'), ['turn_id', 'created_at', 'id'], unique=False)

    op.create_table('resolutions',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=64), nullable=False),
    sa.Column('turn_id', sa.String(length=64), nullable=False),
    sa.Column('turn_number', sa.Integer(), nullable=False),
    sa.Column('orders', sa.JSON(), nullable=False),
    sa.Column('gm_inputs', sa.JSON(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('state_before', sa.JSON(), nullable=False),
    sa.Column('state_after', sa.JSON(), nullable=False),
    sa.Column('characters_before', sa.JSON(), nullable=False),
    sa.Column('next_turn_id', sa.String(length=64), nullable=True),
    sa.Column('undone', sa.Boolean(), nullable=False),
    sa.Column('undone_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_resolutions_game_id_games')),
    sa.ForeignKeyConstraint(['turn_id'], ['turns.id'], name=op.f('fk_resolutions_turn_id_turns')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resolutions'))
    )
    with op.batch_alter_table('resolutions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_resolutions_game_id_undone_created_at'), ['game_id', 'undone', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_resolutions_turn_id_undone'), ['turn_id', 'undone'], unique=False)

    op.create_table('post_revisions',
    sa.Column('post_id', sa.String(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('ok', sa.Boolean(), nullable=False),
    sa.Column('problems', sa.JSON(), nullable=False),
    sa.Column('reply', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['posts.id'], name=op.f('fk_post_revisions_post_id_posts')),
    sa.PrimaryKeyConstraint('post_id', 'number', name=op.f('pk_post_revisions'))
    )
    op.create_table('orders',
    sa.Column('post_id', sa.String(length=64), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('actor', sa.String(length=200), nullable=False),
    sa.Column('body', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['post_id', 'revision'], ['post_revisions.post_id', 'post_revisions.number'], name=op.f('fk_orders_post_id_revision_post_revisions')),
    sa.PrimaryKeyConstraint('post_id', 'revision', 'position', name=op.f('pk_orders'))
    )


def downgrade() -> None:
    op.drop_table('orders')
    op.drop_table('post_revisions')
    with op.batch_alter_table('resolutions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_resolutions_turn_id_undone'))
        batch_op.drop_index(batch_op.f('ix_resolutions_game_id_undone_created_at'))

    op.drop_table('resolutions')
    with op.batch_alter_table('posts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_posts_turn_id_created_at_id'))

    op.drop_table('posts')
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.drop_index('uq_turns_game_id_number', sqlite_where=sa.text("status <> 'void'"), postgresql_where=sa.text("status <> 'void'"))
        batch_op.drop_index(batch_op.f('ix_turns_status_paused_alarm_at'))

    op.drop_table('turns')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_sent_at_created_at_id'))
        batch_op.drop_index(batch_op.f('ix_outbox_game_id_created_at_id'))

    op.drop_table('outbox')
    with op.batch_alter_table('memberships', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_memberships_user_id_game_id'))

    op.drop_table('memberships')
    with op.batch_alter_table('ledger', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_player_at_id'))

    op.drop_table('ledger')
    with op.batch_alter_table('characters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_characters_owner'))
        batch_op.drop_index(batch_op.f('ix_characters_game_id_created_at_id'))

    op.drop_table('characters')
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_log_game_id_at_id'))

    op.drop_table('audit_log')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_status_created_at_id'))

    op.drop_table('games')
