"""A built-in English stop-word list: common function words that carry little topic.

Seed 000, exercise 2.2 removes such words before counting. The list is ours (articles,
pronouns, auxiliary and modal verbs, prepositions, conjunctions, common adverbs and
determiners), all lowercase, so it matches tokens after the default lowercasing. The app
lets the user edit it; pass any ``frozenset`` as ``TextOptions(stop_words=...)``.
"""

from __future__ import annotations

__all__ = ["ENGLISH_STOP_WORDS"]

_ARTICLES_AND_DETERMINERS = """
a an the this that these those some any no every each either neither all both
few many much more most less least other another such own same several enough
"""

_PRONOUNS = """
i me my mine myself we us our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs
themselves one ones oneself who whom whose which what whatever whoever whichever
someone somebody something anyone anybody anything everyone everybody everything
nobody nothing none
"""

_AUXILIARIES_AND_MODALS = """
am is are was were be been being have has had having do does did doing done
can could may might must shall should will would ought
"""

_PREPOSITIONS = """
about above across after against along among around at before behind below
beneath beside besides between beyond by down during except for from in inside
into like near of off on onto out outside over past since through throughout till
to toward towards under underneath until up upon via with within without
"""

_CONJUNCTIONS = """
and but or nor so yet if then else than because although though while whereas
unless whether as once
"""

_ADVERBS = """
not very too also just only even still already again ever never always often
sometimes here there where when why how now then thus hence however therefore
perhaps quite rather almost well back away
"""

ENGLISH_STOP_WORDS: frozenset[str] = frozenset(
    (
        _ARTICLES_AND_DETERMINERS
        + _PRONOUNS
        + _AUXILIARIES_AND_MODALS
        + _PREPOSITIONS
        + _CONJUNCTIONS
        + _ADVERBS
    ).split()
)
