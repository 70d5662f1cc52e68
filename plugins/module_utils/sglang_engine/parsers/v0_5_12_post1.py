# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.12.post1, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.12.post1'
BASE = '0.5.12'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.12.post1 or changed since 0.5.12 (kind, type, choices or dest)
ADDED = {
}
# flags 0.5.12.post1 no longer has
REMOVED = (
)
