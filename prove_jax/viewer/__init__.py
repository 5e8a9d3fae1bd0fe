"""Self-contained HTML views of episode files (`python -m launch.view`): no network, all CSS
and JS inline, every text escaped.

Layout: `data` reads episode files / metrics and groups GRPO rollouts, `episode` renders one
episode and group, `pages` splits an episode file into page files (paging, not lazy loading:
see its docstring), `index` draws the run's table and reward curve, `assets` holds CSS/JS,
`build` ties them together.
"""

from prove_jax.viewer.build import build_view
from prove_jax.viewer.data import ViewError

__all__ = ["ViewError", "build_view"]
