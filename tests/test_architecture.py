"""The lines never to cross (docs/architecture.md), checked on every import in the code."""

import ast
import re
from pathlib import Path

APP = Path(__file__).parent.parent / "app"
GAMES = APP / "games"
CLUB = APP / "club"
# The game service, a package per group of jobs: the only code that changes a game or a player. The mailer reads
# game state and never changes it; the club changes games and players through these jobs only.
SERVICE_JOBS = [GAMES / "service.py", GAMES / "records", GAMES / "lobby", GAMES / "play", GAMES / "digest",
                GAMES / "commands"]
RECORD_NAMES = ("game", "running", "finished", "player", "opponent", "challenger", "white", "black")


def imports_of(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def imports(folder: Path) -> dict[str, set[str]]:
    return {str(path.relative_to(APP.parent)): imports_of(path) for path in folder.rglob("*.py")}


def test_rules_import_nothing_of_the_rest_of_the_app_nor_web_database_or_mail():
    forbidden = ("flask", "sqlalchemy", "alembic", "email", "smtplib", "aiosmtpd", "imap_tools", "jinja2")
    for path, names in imports(APP / "rules").items():
        for name in names:
            assert not (name.startswith("app.") and not name.startswith("app.rules")), (path, name)
            assert not name.startswith(forbidden), (path, name)


def test_inbound_and_web_do_not_import_each_other():
    for path, names in imports(APP / "inbound").items():
        assert not any(name.startswith("app.web") for name in names), path
    for path, names in imports(APP / "web").items():
        assert not any(name.startswith("app.inbound") for name in names), path


def test_outbound_mail_imports_neither_the_game_service_nor_inbound_nor_web():
    """Dependencies run one way: mail in -> game service -> mail out."""
    for path, names in imports(APP / "outbound").items():
        assert not any(name.startswith(("app.games", "app.inbound", "app.web")) for name in names), (path, names)


def test_the_game_service_and_the_club_never_import_the_doors_or_the_web():
    for path, names in {**imports(GAMES), **imports(CLUB)}.items():
        assert not any(name.startswith(("app.inbound", "app.web")) for name in names), (path, names)


# ------------------------------------------------------------------ the game service by job, the club beside it


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_graph(root: Path) -> dict[str, set[str]]:
    """Each module under ``root`` and the modules under it that it imports, wherever the import stands (inside a
    function, or under ``if TYPE_CHECKING``); ``from package import module`` names the module."""
    modules = {module_name(path, root): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names if alias.name in modules}
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    named = f"{node.module}.{alias.name}"
                    found |= {named} if named in modules else {node.module} if node.module in modules else set()
        graph[name] = found - {name}
    return graph


def circle_in(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports (its modules, the first again at the end), or [] when there is none."""
    done: set[str] = set()

    def walk(name: str, path: list[str]) -> list[str]:
        if name in path:
            return [*path[path.index(name):], name]
        if name in done:
            return []
        for imported in sorted(graph.get(name, ())):
            circle = walk(imported, [*path, name])
            if circle:
                return circle
        done.add(name)
        return []

    for name in sorted(graph):
        circle = walk(name, [])
        if circle:
            return circle
    return []


def test_no_module_of_the_app_imports_itself_back_through_others():
    """The imports of app/ form no circle, those made only for type hints included: each module stands above
    what it imports, so the code reads from the bottom up and each layer uses only the ones below it."""
    graph = module_graph(APP)
    assert {"app.games.service", "app.games.play.turn", "app.club.seeks", "app.rules.base"} <= graph.keys()
    assert "app.games.records.work" in graph["app.games.play.turn"]  # the graph sees the imports
    assert circle_in(graph) == []


def test_the_check_for_circles_finds_one_made_by_a_type_hint_alone(tmp_path):
    package = tmp_path / "app"
    (package / "jobs").mkdir(parents=True)
    (package / "service.py").write_text("from app.jobs import turn\n")
    (package / "jobs" / "turn.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                                              "    from app.service import Service\n")
    assert circle_in(module_graph(package)) == ["app.jobs.turn", "app.service", "app.jobs.turn"]
    (package / "jobs" / "turn.py").write_text("")
    assert circle_in(module_graph(package)) == []


def test_no_job_and_nothing_of_the_club_imports_the_game_service():
    """The service builds its jobs and hands each what it needs (the unit of work, the mailer, the event record,
    the other jobs it calls): nothing below it, nor the club beside it, reaches back for the service."""
    graph = module_graph(APP)
    below = [name for name in graph if name.startswith(("app.games.", "app.club")) and name != "app.games.service"]
    assert "app.games.commands.base" in below and "app.club.seeks" in below
    assert [name for name in below if {"app.games.service", "app.service"} & graph[name]] == []


def test_the_tournaments_are_one_package_whose_core_imports_nothing_of_the_rest():
    """Everything of tournaments lives in app/club/tournaments/: its pure core (core/, which tests/club/
    test_purity.py keeps free of the database, the web and mail) and beside it the rows, the jobs, the commands
    and the words; the core imports none of them, and only the package's own modules, the command line and the
    web's page read the core."""
    graph = module_graph(APP)
    assert not list(CLUB.glob("tournament_*.py"))
    core = {name for name in graph if name.startswith("app.club.tournaments.core")}
    assert {"app.club.tournaments.core.terms", "app.club.tournaments.jobs"} <= graph.keys()
    assert {name: sorted(imported) for name in core if (imported := {
        each for each in graph[name] if each.startswith("app.club.") and not each.startswith(
            "app.club.tournaments.core")})} == {}
    readers = {name for name, imported in graph.items() if imported & core and name not in core}
    assert {name for name in readers if not name.startswith("app.club.tournaments.")} <= {"app.cli",
                                                                                          "app.web.tournaments"}


def test_the_game_service_imports_nothing_of_the_club_above_it():
    """The club is a layer above the game service, using it to create and end games: nothing under app/games
    imports the club, even for a type hint. What puts the two together (the commands read, the listeners to the
    end of games, the club's jobs) stands above both, in app/service.py."""
    graph = module_graph(APP)
    games = {name: imported for name, imported in graph.items() if name.startswith("app.games")}
    assert "app.games.play.turn" in games and "app.club.ratings" in graph["app.service"]  # the graph sees both
    assert {name: sorted(imported) for name, imported in games.items()
            if any(each.startswith("app.club") for each in imported)} == {}


CLUB_TABLES = {"SEEKS", "RATINGS", "CHANGES", "TOURNAMENTS", "ENTRIES", "PAIRINGS", "Seek", "Rating", "RatingChange",
               "Tournament", "TournamentEntry", "TournamentPairing"}  # app/club/models.py


def club_writes(path: Path) -> list[str]:
    """What a module of the club writes that is not the club's own: a field of a game's or a player's record, a
    row through the game service's writers, an insert, update or delete of a table other than the club's."""
    found = []
    writers = {"save_game", "save_player", "add_game", "find_or_add_player", "lock_game", "lock_game_quoted",
               "add_event", "setattr"}
    for node in ast.walk(ast.parse(path.read_text())):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AugAssign | ast.AnnAssign) else []
        found += [f"{path.name}:{node.lineno}: assigns {ast.unparse(target)}" for target in targets
                  if isinstance(target, ast.Attribute) and any(
                      isinstance(inner, ast.Name) and inner.id in RECORD_NAMES for inner in ast.walk(target))]
        if isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in writers:
                found.append(f"{path.name}:{node.lineno}: calls {called}")
            if called in ("insert", "update", "delete") and not (
                    node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in CLUB_TABLES):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:60]}")
    return found


def test_the_club_writes_its_own_rows_and_never_a_games_state():
    """Seeks and ratings are the club's rows; games and players are changed by the game service's jobs alone,
    which the club uses to create and start games and to name a player."""
    found = [line for path in sorted(CLUB.rglob("*.py")) for line in club_writes(path)]
    assert found == []


def test_the_check_for_the_clubs_writes_finds_what_it_looks_for(tmp_path):
    module = tmp_path / "club.py"
    module.write_text("def f(connection, player, game, work):\n    player.name = 'Player 1'\n"
                      "    game.white.name = 'x'\n    connection.execute(update(GAMES).values(status='over'))\n"
                      "    connection.execute(update(SEEKS).values(status='taken'))\n    work.add_game(1)\n")
    assert len(club_writes(module)) == 4


def test_only_the_game_service_writes_games_and_players():
    """Outside the game service's job modules nothing assigns to a game's or a player's fields."""
    for path in APP.rglob("*.py"):
        if any(path == job or job in path.parents for job in SERVICE_JOBS):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AugAssign | ast.AnnAssign) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    assert target.value.id not in RECORD_NAMES, (str(path), target.attr)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                first = node.args[0]
                assert not (isinstance(first, ast.Name) and first.id in RECORD_NAMES), str(path)


def calls_of(path: Path, names: set[str]) -> set[str]:
    """Which of these functions or methods the module calls or imports by name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr in names:
            found.add(node.attr)
        if isinstance(node, ast.Name) and node.id in names:
            found.add(node.id)
        if isinstance(node, ast.ImportFrom):
            found |= names & {alias.name for alias in node.names}
    return found


def test_only_the_unit_of_work_writes_games_and_players_and_only_the_event_record_writes_events():
    """Rows are written in one place each: games and players by the unit of work (once, at its flush), events
    by the event record; nothing outside the game service calls those statements at all."""
    writers = {"save_game", "save_player", "add_game", "find_or_add_player", "lock_game", "lock_game_quoted"}
    for path in APP.rglob("*.py"):
        if path == GAMES / "records" / "rows.py":
            continue
        allowed = writers if path == GAMES / "records" / "work.py" else {"add_event"} if path == GAMES / "records" / \
            "events.py" else set()
        assert calls_of(path, writers | {"add_event"}) <= allowed, str(path)


def test_the_game_service_decodes_and_encodes_a_games_state_in_the_unit_of_work_alone():
    """Decoded once per transaction, written once: no other part of the service reads or writes the JSON."""
    for path in GAMES.rglob("*.py"):
        if path != GAMES / "records" / "work.py":
            assert not calls_of(path, {"from_json", "to_json"}), str(path)


VARIANT_WORDS = re.compile(  # the words of the variants' rules, beside their names (``variant_words``)
    r"\b(looking[- _]?glass|mirror|real world|worlds?|strikes?|notebooks?|portals?|prox(y|ies)|side[- _]?view|"
    r"quasi|alice|palindromic|physics|(left|right)[- ]handed|handedness|shortened|castl\w*|e2-e4)\b",
    re.IGNORECASE,
)


def declared_names() -> set[str]:
    """Every declared variant's name, title and package, as the registry has them."""
    from app.present.registry import DECLARATIONS

    names = set()
    for declaration in DECLARATIONS.values():
        module = declaration.rules.__module__.split(".")
        names |= {declaration.name, declaration.title, *(module[2:3] if module[:2] == ["app", "rules"] else [])}
    return names


def variant_words() -> re.Pattern[str]:
    """The words no neutral file may hold: the rules' own (``VARIANT_WORDS``), and every declared variant's name,
    title and package, spelt with a space, a dash, an underscore or nothing between their words: a new variant
    adds its own by being declared."""
    spellings = [r"[- _]?".join(map(re.escape, re.split(r"[- _]+", name))) for name in sorted(declared_names())]
    return re.compile(rf"{VARIANT_WORDS.pattern}|\b({'|'.join(spellings)})\b", re.IGNORECASE)


NEUTRAL = [APP / "games", APP / "club", APP / "web", APP / "inbound", APP / "outbound", APP / "worker.py",
           APP / "server.py", APP / "admin.py", APP.parent / "templates",
           APP / "present" / "diagram.py", APP / "present" / "text.py", APP / "present" / "svg.py"]  # the renderers


def neutral_files() -> list[Path]:
    files = []
    for place in NEUTRAL:
        files += [place] if place.is_file() else [path for path in place.rglob("*") if path.suffix in
                                                  (".py", ".html", ".txt")]
    return files


def test_the_service_the_mail_the_web_and_the_templates_name_no_variant():
    """Everything variant-specific comes from the variant (app/rules) and its presenter (app/present)."""
    words, found = variant_words(), []
    for path in neutral_files():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if "clients.py" in path.name:  # replies as mail clients write them: any game's orders
                continue
            match = words.search(line)
            if match:
                found.append(f"{path.relative_to(APP.parent)}:{number}: {match.group(0)}")
    assert found == []


def test_the_words_no_neutral_file_may_hold_grow_with_every_declared_variant():
    """Each declared variant's name, title and package are among them, however spelt; a variant served from a
    package of its own (Toy Chess) adds its own by being declared, and nothing else."""
    from app.present import registry
    from tests.variants.toy import DECLARATION as TOY

    assert not variant_words().search("Toy Chess")
    registry.register(TOY)
    try:
        words = variant_words()
    finally:
        registry.unregister(TOY.name)
    for line in ("Game 12, Toy Chess, against Bob", "rules toy-chess", "from toy_chess import x", "TOY CHESS",
                 "Dark Chess", "dark_chess", "4D Quasi-Alice Chess", "quasi-alice-4d", "Kriegspiel"):
        assert words.search(line), line
    assert not words.search("Game 12, a chess game, against Bob: your move")


def test_presenters_import_nothing_of_games_mail_web_or_the_database():
    """A presenter sees a player's view and messages, never a game's state or the database."""
    forbidden = ("app.games", "app.inbound", "app.outbound", "app.web", "app.db", "flask", "sqlalchemy")
    for path, names in imports(APP / "present").items():
        assert not any(name.startswith(forbidden) for name in names), (path, names)


def test_every_variant_is_declared_once_with_its_own_rules():
    """The rules-only registry and the declarations find the same variants, each declaration naming the very
    referee ``referee play`` uses."""
    from app.present.registry import DECLARATIONS
    from app.rules.registry import VARIANTS

    assert set(VARIANTS) == set(DECLARATIONS)
    assert all(DECLARATIONS[name].rules is VARIANTS[name] for name in VARIANTS)


def test_a_variant_lives_in_its_own_two_packages():
    """Nothing outside app/rules/<variant>/ and app/present/<variant>/ names a variant's package: the
    registries find them (the renderers, the service and the templates name none, above)."""
    from app.present.registry import DECLARATIONS

    packages = {declaration.rules.__module__.split(".")[2] for declaration in DECLARATIONS.values()}
    found = []
    for path in APP.rglob("*.py"):
        inside = {part for part in path.relative_to(APP).parts[1:2] if part in packages}
        for name in imports_of(path):
            parts = name.split(".")
            named = parts[2] if len(parts) > 2 and parts[:2] in (["app", "rules"], ["app", "present"]) else ""
            if named in packages and named not in inside:
                found.append(f"{path.relative_to(APP.parent)}: {name}")
    assert found == []


# What a variant tells its players is read by its presenter alone: the service, the mail, the web and the templates
# read the common messages through app.rules.messages, and know no board's size.
MESSAGE_READERS = [APP / "games", APP / "club", APP / "web", APP / "outbound", APP.parent / "templates"]
EVENT_FIELDS = {"n", "by", "order", "result", "to", "views", "view", "move"}  # an event's own, not a message's
BOARD_SIZE = re.compile(r"\[a-h\]|\[1-8\]|\b8/8\b|(?:[1-8pnbrqk]{1,8}/){7}[1-8pnbrqk]{1,8}", re.IGNORECASE)


def variant_message_words() -> tuple[set[str], set[str]]:
    """The kinds, and the keys (at any depth), of the messages the declared variants send in random games of each
    sample, that are not common ones (``app.rules.messages``): each variant's own words."""
    from app.present.registry import DECLARATIONS
    from app.rules.messages import COMMON_KEYS, COMMON_KINDS
    from tests.variants.conformance import random_game

    kinds: set[str] = set()
    keys: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            keys.update(value)
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for declaration in DECLARATIONS.values():
        for sample in declaration.samples:
            for event in random_game(declaration, sample, 1).events:
                for messages in event.outcome.to.values():
                    kinds.update(message["kind"] for message in messages)
                    walk(messages)
    return kinds - COMMON_KINDS, keys - COMMON_KEYS - COMMON_KINDS


def message_reading(path: Path, own_kinds: set[str], own_keys: set[str], kinds: set[str]) -> list[str]:
    """Where a module reads a message other than through ``app.rules.messages``: a variant's kind named at all, a
    variant's key looked up (``m["directions"]``, ``m.get("world")``), a kind compared with ``["kind"]``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        looked_up = node.slice if isinstance(node, ast.Subscript) else node.args[0] if (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and node.args) else None
        if isinstance(looked_up, ast.Constant) and looked_up.value in own_keys - EVENT_FIELDS:
            found.append(f"{path.name}:{node.lineno}: reads {looked_up.value!r}")
        if isinstance(node, ast.Constant) and node.value in own_kinds:
            found.append(f"{path.name}:{node.lineno}: names the kind {node.value!r}")
        if isinstance(node, ast.Compare) and "['kind']" in ast.unparse(node) and any(
                isinstance(side, ast.Constant) and side.value in kinds for side in [node.left, *node.comparators]):
            found.append(f"{path.name}:{node.lineno}: compares a message's kind")
    return found


def test_the_service_the_mail_the_web_and_the_templates_read_no_variants_message_key_and_no_board_size():
    """They read the common messages through app.rules.messages (``moved_by``, ``is_end``, ``retold`` ...) and ask
    the variant what depends on its board (``Variant.started``): a variant with other details or another board
    changes nothing there."""
    from app.rules.messages import COMMON_KINDS

    own_kinds, own_keys = variant_message_words()
    assert {"pawn-tries", "landed", "directions", "world"} <= own_kinds | own_keys  # the words are found
    found = []
    for place in MESSAGE_READERS:
        for path in sorted(place.rglob("*")):
            if path.suffix == ".py":
                found += message_reading(path, own_kinds, own_keys, own_kinds | COMMON_KINDS)
            if path.suffix in (".py", ".html", ".txt"):
                text = path.read_text()
                found += [f"{path.name}: a board's size: {match.group(0)}" for match in BOARD_SIZE.finditer(text)]
                if path.suffix != ".py":
                    found += [f"{path.name}: reads {word!r}" for word in sorted(own_kinds | own_keys - EVENT_FIELDS)
                              if re.search(rf"\.{word}\b|\[['\"]{word}['\"]\]", text)]
    assert found == []


def test_the_check_for_message_reading_finds_what_it_looks_for(tmp_path):
    """The test above fails on a module that reads a variant's key or compares a kind, and on an 8x8 FEN."""
    module = tmp_path / "reader.py"
    module.write_text('def f(m):\n    return m["directions"], m.get("world"), m["kind"] == "moved", "pawn-tries"\n'
                      'EMPTY = "8/8/8/8/8/8/8/8"\n')
    found = message_reading(module, {"pawn-tries"}, {"directions", "world"}, {"moved", "pawn-tries"})
    assert len(found) == 4
    assert BOARD_SIZE.search(module.read_text())


# ------------------------------------------------------------------ the services' names imported from their homes

ROOT = APP.parent
IMPORTERS = [APP, ROOT / "tests", ROOT / "benchmarks", ROOT / "migrations"]
SERVICES = ("app.service", "app.games.service")  # what the doors use: never a second home for a name of a job
# Imports not yet moved to the name's home (app.games.errors), in files another change reorganises


def defined_in(path: Path) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments), wherever they stand in it
    (under an ``if`` or a ``try`` too), and not the names it imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {each.id for target in targets for each in ast.walk(target) if isinstance(each, ast.Name)}
    return names


def borrowed_imports(paths: list[Path], homes: tuple[str, ...]) -> list[str]:
    """Each ``from M import N`` in these files, M one of ``homes``, where M does not define N and N is no module
    under it: a name taken from a module that only imports it (a re-export), as "file name: M.N"."""
    modules = {module_name(path, APP): path for path in APP.rglob("*.py")}
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.module in homes):
                continue
            home = defined_in(modules[node.module])
            found += [f"{path.name}: {node.module}.{alias.name}" for alias in node.names
                      if alias.name not in home and f"{node.module}.{alias.name}" not in modules]
    return found


def test_the_services_re_export_nothing_they_import():
    """The app, the tests, the benchmarks and the migrations import from the services only what the services
    define (``ServiceError`` from app.games.errors, ``display_name`` from app.games.records.work): moving a name
    breaks every import of it at once, never hidden behind a second home."""
    paths = [path for folder in IMPORTERS for path in folder.rglob("*.py")]
    assert len(paths) > 100
    assert set(borrowed_imports(paths, SERVICES)) == set()


def test_the_check_for_re_exports_finds_a_name_taken_from_a_module_that_imports_it(tmp_path):
    module = tmp_path / "borrowing.py"
    module.write_text("from app.games.lobby.preferences import ServiceError\nfrom app.games import lobby\n"
                      "from app.games.lobby.preferences import Preferences\n")
    homes = ("app.games.lobby.preferences", "app.games")
    assert borrowed_imports([module], homes) == ["borrowing.py: app.games.lobby.preferences.ServiceError"]
