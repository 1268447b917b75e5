"""``tf.contrib.training.HParams``, written for tf1mem from TF 1.15.5's observed behaviour.

An :class:`HParams` holds named hyperparameters, each with the type of the value it
was added with (``int``, ``float``, ``bool``, ``str``, or a list of one of those), and
keeps that type: :meth:`HParams.parse` reads ``"lr=0.1,layers=[64,32],bn=false"``,
:meth:`HParams.set_hparam` / :meth:`HParams.override_from_dict` cast and refuse
values of another kind with TF 1.15's ``ValueError`` texts (``"Could not cast hparam
'a' of type '<class 'int'>' from value 2.5"``), unknown names raise ``KeyError``
(``ValueError`` from ``parse``). Checked against TF 1.15.5 by
the corpus script ``tests/legacy_corpus/contrib_hparams.py``. No
TensorFlow needed.
"""

import json
import numbers
import re

__all__ = ["HParams"]

# name, optional [index], "=", then a [list] or a scalar without commas or "[",
# then the end or a comma.
_PARAM = re.compile(r"(?P<name>[a-zA-Z][\w.]*)(?P<index>\[\s*(\d*)\s*\])?="
                    r"(?:\[(?P<vals>[^\]]*)\]|(?P<val>[^,\[]*))(?:$|,\s*)")


def _cast_error(name, param_type, value):
    return ValueError(f"Could not cast hparam '{name}' of type '{param_type}' from value "
                      f"{value!r}")


def _cast(name, param_type, value):
    """``value`` as ``param_type``, with TF 1.15's rules (no bool <-> number)."""
    if param_type is bool:
        if isinstance(value, bool) or type(value).__name__ == "bool_":
            return bool(value)
    elif param_type is int:
        if isinstance(value, numbers.Integral) and not isinstance(value, bool) \
                and type(value).__name__ != "bool_":
            return int(value)
    elif param_type is float:
        if isinstance(value, numbers.Real) and not isinstance(value, bool) \
                and type(value).__name__ != "bool_":
            return float(value)
    elif param_type is str:
        if isinstance(value, str):
            return value
    elif isinstance(value, param_type):
        return value
    raise _cast_error(name, param_type, value)


def _parse_scalar(param_type, text):
    if param_type is bool:
        if text in ("true", "True"):
            return True
        if text in ("false", "False"):
            return False
        return int(text) != 0
    return param_type(text)


class HParams:
    """A set of typed hyperparameters (TF 1.15's ``tf.contrib.training.HParams``).

    Each keyword argument becomes an attribute and a hyperparameter of its value's
    type. ``hparam_def`` (an ``HParamDef`` protocol buffer) is not supported;
    ``model_structure`` is kept for :meth:`get_model_structure`.
    """


    def __init__(self, hparam_def=None, model_structure=None, **kwargs):
        self._hparam_types = {}
        self._model_structure = model_structure
        if hparam_def is not None:
            raise TypeError("HParams(hparam_def=...) reads an HParamDef protocol buffer, "
                            "which tf1mem's HParams does not support; pass the values as "
                            "keyword arguments, or use parse_json() on their JSON.")
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name, value):
        """Adds ``name`` with ``value``; its type is ``value``'s (a list's: its first
        element's).

        Raises:
          ValueError: the name is taken (also by a method: ``values``, ``parse`` ...),
            or ``value`` is an empty list.
        """
        if getattr(self, name, None) is not None:
            raise ValueError(f"Hyperparameter name is reserved: {name}")
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError(f"Multi-valued hyperparameters cannot be empty: {name}")
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name, value):
        """Sets ``name`` to ``value`` cast to its type.

        Raises:
          KeyError: no such hyperparameter.
          ValueError: the value cannot be cast (a float for an int, 0 for a bool, a
            scalar for a list or a list for a scalar).
        """
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, list):
            if not is_list:
                raise ValueError(f"Must not pass a list for single-valued parameter: {name}")
            setattr(self, name, [_cast(name, param_type, v) for v in value])
        else:
            if is_list:
                raise ValueError(f"Must pass a list for multi-valued parameter: {name}.")
            setattr(self, name, _cast(name, param_type, value))

    def del_hparam(self, name):
        """Removes ``name``; nothing happens when there is no such hyperparameter."""
        if hasattr(self, name):
            delattr(self, name)
            self._hparam_types.pop(name, None)

    def parse(self, values):
        """Overrides hyperparameters from ``"name=value,list=[v1,v2],..."``.

        Returns:
          self.

        Raises:
          ValueError: a malformed string, an unknown name, a value that does not
            parse as the hyperparameter's type, a name given twice.
        """
        types = {name: t for name, (t, _) in self._hparam_types.items()}
        return self.override_from_dict(self._parse_values(values, types))

    def _parse_values(self, values, types):
        results = {}
        pos = 0
        while pos < len(values):
            match = _PARAM.match(values, pos)
            if not match:
                raise ValueError(f"Malformed hyperparameter value: {values[pos:]}")
            pos = match.end()
            name = match.group("name")
            if name not in types:
                raise ValueError(f"Unknown hyperparameter type for {name}")
            if name in results:
                raise ValueError(f"Multiple assignments to variable '{name}' in {values}")
            param_type = types[name]

            def parse_one(text, name=name, param_type=param_type):
                try:
                    return _parse_scalar(param_type, text)
                except (TypeError, ValueError):
                    if param_type is type(None):
                        raise TypeError(f"hparam '{name}' has the value None, which gives it "
                                        f"no type to parse {text!r} as") from None
                    raise ValueError(f"Could not parse hparam '{name}' of type "
                                     f"'{param_type.__name__}' with value '{text}' in "
                                     f"{values}") from None

            if match.group("vals") is not None:
                inner = match.group("vals")
                try:
                    results[name] = [_parse_scalar(param_type, v.strip())
                                     for v in inner.split(",")] if inner.strip() else []
                except (TypeError, ValueError):
                    raise ValueError(f"Could not parse hparam '{name}' of type "
                                     f"'{param_type.__name__}' with value '{inner}' in "
                                     f"{values}") from None
            else:
                value = parse_one(match.group("val"))
                if match.group("index") is not None:
                    index = match.group(3)
                    results[name] = {int(index) if index else 0: value}
                else:
                    results[name] = value
        return results

    def override_from_dict(self, values_dict):
        """Sets each ``name: value`` of the dict (see :meth:`set_hparam`); returns self."""
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def parse_json(self, values_json):
        """Overrides hyperparameters from a JSON object; returns self."""
        return self.override_from_dict(json.loads(values_json))

    def to_json(self, indent=None, separators=None, sort_keys=False):
        """The hyperparameters as a JSON object (``json.dumps`` options)."""
        return json.dumps(self.values(), indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def values(self):
        """A new dict of name -> value, in the order the names were added."""
        return {name: getattr(self, name) for name in self._hparam_types}

    def get(self, key, default=None):
        """The value of ``key``, or ``default`` when there is none.

        Raises:
          ValueError: ``default`` is of a kind the hyperparameter cannot take.
        """
        if key not in self._hparam_types:
            return default
        if default is not None:
            param_type, is_list = self._hparam_types[key]
            shown = f"list<{param_type}>" if is_list else str(param_type)
            if is_list != isinstance(default, list):
                raise ValueError(f"Hparam '{key}' of type '{shown}' is incompatible with "
                                 f"default={default}")
            try:
                for item in (default if is_list else [default]):
                    _cast(key, param_type, item)
            except ValueError as exc:
                raise ValueError(f"Hparam '{key}' of type '{shown}' is incompatible with "
                                 f"default={default}. {exc}") from None
        return getattr(self, key)

    def get_model_structure(self):
        return self._model_structure

    def __contains__(self, key):
        return key in self._hparam_types

    def __str__(self):
        return ",".join(f"{name}={value}" for name, value in self.values().items())

    def __repr__(self):
        return f"HParams({sorted(self.values().items())!r})"
