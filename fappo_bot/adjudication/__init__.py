"""Adjudication cases (spec/cases.md): small rules situations with their expected results.

- `loader`: YAML case files to typed cases (`load_case_file`, `character_from_case`); a malformed
  case becomes a `BadCase` instead of stopping the file.
- `runner`: each kind through its rules module (turn -> `rules.resolve.resolve_turn`, sheet ->
  `rules.sheet`, spell -> `rules.magic`, rest -> `rules.rest`, heal -> `rules.healing`,
  parse -> `posting.parse_post`), then `compare` checks only the fields `expect` lists.
- `command` / `parse_command`: `fappo-bot adjudicate FILE...` and `fappo-bot parse --sheet`.
"""
