"""``manage.py demo`` plays a whole game of any variant through the real pipeline."""

import pytest
from sqlalchemy import create_engine, text

from app.demo import run_demo
from app.rules.registry import VARIANTS


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_demo_plays_to_the_end_and_writes_the_mail(tmp_path, variant):
    lines = []
    folder = run_demo(lines.append, tmp_path, variant)
    assert any(": over, " in line for line in lines), lines[-6:]
    mails = list((folder / "outbox" / "new").iterdir())
    assert len(mails) > 8
    engine = create_engine(f"sqlite:///{folder / 'demo.sqlite3'}")
    with engine.connect() as connection:
        stored = connection.execute(text("select count(*) from inbound_messages")).scalar()
        handled = connection.execute(text("select count(*) from inbound_messages where status in ('done', "
                                          "'rejected')")).scalar()
        said = connection.execute(text("select count(*) from events where result='said'")).scalar()
    assert handled == stored > 4 and said == 1  # every reply was handled, none failed
