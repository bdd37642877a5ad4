"""``manage.py demo`` plays a whole game through the real pipeline."""

from sqlalchemy import create_engine, text

from app.demo import run_demo


def test_demo_plays_to_the_end_and_writes_the_mail(tmp_path):
    lines = []
    folder = run_demo(lines.append, tmp_path)
    assert any("shortened" in line for line in lines) and any("strike" in line for line in lines)
    assert any("over, 1-0 (king captured)" in line for line in lines)
    mails = list((folder / "outbox" / "new").iterdir())
    assert len(mails) > 20
    engine = create_engine(f"sqlite:///{folder / 'demo.sqlite3'}")
    with engine.connect() as connection:
        assert connection.execute(text("select count(*) from inbound_messages where status='done'")).scalar() == 15
