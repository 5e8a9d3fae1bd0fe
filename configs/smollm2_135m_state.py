"""The SmolLM2 recipe (configs/smollm2_135m.py) with the end-state reward term on: besides the
paper's components, an episode earns w_state when every server the task writes ends in the
state its truth reaches (clock-free hashes, so a valid reordering of independent calls counts;
rows synthesized with end states, see README "Rewards").

    python -m launch.train --config=configs/smollm2_135m_state.py ...
"""

from ml_collections import ConfigDict

from configs.smollm2_135m import get_config as recipe

W_STATE = 0.5  # as much as coverage: reaching the goal state counts like covering the calls


def get_config() -> ConfigDict:
    c = recipe()
    c.reward.w_state = W_STATE
    return c
