"""Every option of tf1mem's training and memory commands explains itself in ``--help``.

Walks the argparse parsers of ``train``, ``cluster`` and ``memory`` (each
subcommand), built without TensorFlow, and checks each option: a help text, its
default shown exactly once where it has one, no ``(default: None)``, and no reST
markup (double backticks) anywhere in the help. The command's tests:
tests/commands/test_train.py and its neighbours.
"""

import argparse

import pytest

from tf1mem import _cli, cluster, memory, train


def _parsers():
    top = memory._parser()
    found = [("train", train._parser()), ("cluster", cluster._build_parser()),
             ("memory", top)]
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += [(f"memory {name}", sub) for name, sub in action.choices.items()]
    return found


PARSERS = _parsers()


def _options(parser):
    for action in parser._actions:
        if (isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
                or action.help == argparse.SUPPRESS):
            continue
        yield action


def _has_default(action) -> bool:
    default = action.default
    return not (action.nargs == 0 or default is None or default is False
                or default is argparse.SUPPRESS or default in ((), "", []))


def test_the_walk_covers_every_command_and_subcommand():
    assert {name for name, _ in PARSERS} >= {
        "train", "cluster", "memory measure", "memory sweep", "memory fit", "memory split"}


@pytest.mark.parametrize("name, parser", PARSERS, ids=[n for n, _ in PARSERS])
def test_every_option_has_help_and_its_default_once(name, parser):
    formatter = parser._get_formatter()
    problems = []
    for action in _options(parser):
        flag = "/".join(action.option_strings) or action.dest
        text = formatter._expand_help(action) if action.help else ""
        if not text.strip():
            problems.append(f"{flag}: no help")
            continue
        count = text.count("(default") + text.count("default:") - text.count("(default:")
        if _has_default(action) and count != 1:
            problems.append(f"{flag}: the default shown {count} times: {text!r}")
        if count > 1 or "(default: None)" in text:
            problems.append(f"{flag}: {text!r}")
    assert not problems, f"python -m tf1mem.{name} --help:\n" + "\n".join(problems)


@pytest.mark.parametrize("name, parser", PARSERS, ids=[n for n, _ in PARSERS])
def test_help_has_no_rest_markup(name, parser):
    assert "``" not in parser.format_help(), name


def test_the_formatter_adds_a_default_only_where_the_help_has_none():
    parser = argparse.ArgumentParser(formatter_class=_cli.HelpFormatter)
    parser.add_argument("--a", default=3, help="a")
    parser.add_argument("--b", default=3, help="b (default 3, with --c 4)")
    parser.add_argument("--c", default=None, help="c")
    parser.add_argument("--d", action="store_true", help="d")
    parser.add_argument("--e", default=(1, 2), help="e")
    formatter = parser._get_formatter()
    texts = {a.dest: formatter._expand_help(a) for a in parser._actions if a.dest != "help"}
    assert texts == {"a": "a (default: 3)", "b": "b (default 3, with --c 4)", "c": "c",
                     "d": "d", "e": "e (default: 1,2)"}


def test_description_drops_the_docstrings_backticks():
    assert _cli.description("``python -m x``: does\n  things.\n\nMore.") == \
        "python -m x: does things."
