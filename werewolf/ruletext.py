"""The rules as players are told them, generated from the config the engine reads.

``rules_text(config, lang)`` writes them in English or Chinese; each identity dealt adds
its own line (``IdentitySpec.rules``), and the lists of identities and the night's order
are read from the registry.
"""

from __future__ import annotations

from .cast import Identity
from .config import (
    AllAbstain,
    Discussion,
    GameConfig,
    NightFallback,
    Reveal,
    SpeechOrder,
    TiePolicy,
    WinRule,
    WolfKill,
    WolfSplit,
)
from .election import rules_line as sheriff_rules
from .errors import ConfigError
from .moderator import night_order
from .registry import IdentitySpec, Names, god_order, identity_spec, identity_specs

__all__ = ["rules_text"]


def _dealt(config: GameConfig) -> list[IdentitySpec]:
    """The unique identities dealt (the gods, and cupid), in the order the lists name them."""
    return [spec for spec in identity_specs() if spec.unique and config.has(spec.identity)]


def _lines(config: GameConfig, lang: str, *, early: bool) -> list[str]:
    """The identities' own lines: right after the night's (``early``) or before the win."""
    specs = sorted(
        (s for s in identity_specs() if s.rules is not None and config.has(s.identity)),
        key=lambda s: s.rules_rank,
    )
    lines = [s.rules(config, lang) for s in specs if (s.rules_rank < 100) == early and s.rules]
    if config.sheriff and not early:  # the sheriff's election, badge and vote
        lines.append(sheriff_rules(config, lang))
    return lines


def _count(config: GameConfig, identity: Identity) -> int:
    return sum(1 for i in config.identities if i is identity)


def _split_en(config: GameConfig) -> str:
    if not config.allow_empty_kill:
        return "if they still disagree after a second round, the most-proposed seat dies"
    if config.wolf_split is WolfSplit.PLURALITY:
        return (
            "if they still disagree after a second round, the most-proposed seat dies "
            "(a tie kills nobody)"
        )
    return "if they still disagree after a second round, nobody dies"


def _split_zh(config: GameConfig) -> str:
    if not config.allow_empty_kill or config.wolf_split is WolfSplit.PLURALITY:
        return "两轮后仍不一致则按多数击杀" + ("（平票空刀）" if config.allow_empty_kill else "")
    return "两轮后仍不一致则空刀"


def _discussion_en(config: GameConfig) -> str:
    budget = config.speech_budget
    cap = f", at most {budget} speeches a day" if budget is not None else ""
    if config.discussion is Discussion.BIDDING:
        each = (
            "each may speak once"
            if config.speech_rounds == 1
            else f"each may speak up to {config.speech_rounds} times"
        )
        return (
            "then the floor is bid for: before each speech every living player bids 0 to 3, "
            "the highest bid speaks (a tie: who spoke least today, then today's seat order); "
            f"{each}{cap}"
        )
    turn = "in turn" if config.speech_order is SpeechOrder.AFTER_DEATH else "in seat order"
    if config.speech_rounds == 1 and budget is None:
        return f"every living player speaks once {turn}"
    rounds = "once" if config.speech_rounds == 1 else f"{config.speech_rounds} times"
    return f"every living player speaks {rounds} {turn}, round after round{cap}"


def _discussion_zh(config: GameConfig) -> str:
    budget = config.speech_budget
    cap = f"，每天最多{budget}次发言" if budget is not None else ""
    if config.discussion is Discussion.BIDDING:
        return (
            "随后竞价发言：每次发言前存活玩家各出价0到3，出价最高者发言"
            f"（平价时今天发言少者优先，再按座位顺序），每人最多发言{config.speech_rounds}次{cap}"
        )
    turn = "依次" if config.speech_order is SpeechOrder.AFTER_DEATH else "按座位号从小到大"
    if config.speech_rounds == 1 and budget is None:
        return f"存活玩家{turn}发言一次"
    return f"存活玩家{turn}轮流发言{config.speech_rounds}轮{cap}"


def rules_text(config: GameConfig, lang: str = "en") -> str:
    """The rules as players are told them, generated from ``config``."""
    if lang == "zh":
        return _rules_zh(config)
    if lang != "en":
        raise ConfigError([("lang", f"unknown language {lang!r}: use 'en' or 'zh'")])
    wolves = _count(config, Identity.WEREWOLF)
    lines = [
        f"{config.seats} players: {wolves} werewolves"
        + "".join(f", 1 {spec.identity.value}" for spec in _dealt(config))
        + f", {_count(config, Identity.VILLAGER)} villagers. "
        + {
            Reveal.NOTHING: "Roles of the dead stay hidden.",
            Reveal.TEAM: "When a player dies, everyone learns whether they were a wolf.",
            Reveal.IDENTITY: "When a player dies, everyone learns their identity.",
        }[config.reveal_on_death],
        "Night: "
        + _before_wolves_en(config)
        + _wolves_en(config)
        + _after_wolves_en(config)
        + ". Deaths are announced at dawn, without causes."
        + (
            " A seer or doctor who gives no valid choice does nothing that night."
            if _idle_night(config)
            else ""
        ),
    ]
    lines += _lines(config, "en", early=True)
    tie = {
        TiePolicy.PK: "a tie leads to one PK round (the tied speak, the others re-vote among "
        "them); a second tie exiles nobody",
        TiePolicy.NONE: "a tie exiles nobody",
        TiePolicy.RANDOM: "a tie is broken at random",
    }[config.tie_policy]
    if config.all_abstain is AllAbstain.RANDOM:
        tie += "; if nobody votes for anyone, a random living player is exiled"
    lines.append(
        "Day: "
        + (
            "night-1 victims and every exiled player give last words; "
            if config.last_words
            else "the dead give no last words; "
        )
        + _discussion_en(config)
        + "; then everyone votes at once"
        + (" (abstaining is allowed)" if config.allow_abstain else "")
        + (", self-votes allowed" if config.allow_self_vote else ", never for yourself")
        + f"; {tie}."
    )
    win = {
        WinRule.SIDE: "wolves win when all villagers or all gods ("
        + ", ".join(g.value for g in god_order() if config.has(g))
        + ") are dead",
        WinRule.TOWN: "wolves win when every good player is dead",
        WinRule.PARITY: "wolves win when living wolves are at least as many as everyone else",
    }[config.win_rule]
    lines.append(
        f"Win: good wins when all wolves are dead; {win}; if both hold at once the wolves win. "
        f"After {config.day_cap} days the game is a draw."
    )
    if not config.retry_illegal:
        lines.append(
            "Answers: an invalid answer is not asked again; it stands for its default at once "
            "(no vote, no target, no potion, silence)."
        )
    lines[-2:-2] = _lines(config, "en", early=False)
    return "\n".join(lines)


def _seer_first(config: GameConfig) -> bool:
    return config.seer_before_wolves and config.has(Identity.SEER)


def _before_wolves_en(config: GameConfig) -> str:
    first = [text.en for text in _night_texts(config, before=True)]
    if _seer_first(config):  # with the doctor at the same time, else on her own
        if config.has(Identity.DOCTOR):
            first[-1] = "the doctor and the seer, at the same time,"
        else:
            first.append("the seer")
    if not first:
        return ""
    acts = " act" if len(first) > 1 or first[-1].endswith(",") else " acts"
    return "first " + ", then ".join(first) + acts + "; then "


def _wolves_abstain(config: GameConfig) -> bool:
    """Wolves who vote may abstain (``wolf_abstain``; with empty kills a ballot for nobody
    already says it)."""
    return config.wolf_abstain and not config.allow_empty_kill


def _idle_night(config: GameConfig) -> bool:
    """A seer or doctor without a valid answer does nothing (``night_fallback``)."""
    dealt = config.has(Identity.SEER) or config.has(Identity.DOCTOR)
    return dealt and config.night_fallback is NightFallback.NOTHING


def _wolves_en(config: GameConfig) -> str:
    victim = " (they may pick a wolf)" if config.wolf_self_knife else " (never a wolf)"
    if config.wolf_kill is WolfKill.VOTE:
        return (
            "each wolf secretly votes for a victim"
            + (" or for nobody" if config.allow_empty_kill else "")
            + (" or abstains" if _wolves_abstain(config) else "")
            + victim
            + "; the most-voted player dies, a tie is broken at random"
            + (
                "; an invalid ballot counts as an abstention, and if every wolf abstains a "
                "random living non-wolf dies"
                if _wolves_abstain(config)
                else ""
            )
        )
    return (
        "the wolves agree on one victim"
        + (" or on nobody" if config.allow_empty_kill else "")
        + victim
        + "; "
        + _split_en(config)
    )


def _night_texts(config: GameConfig, *, before: bool) -> list[Names]:
    """How the night line names the identities dealt that act before the wolves (or after
    them), in the night's order; the seer, when she checks first, is named apart."""
    order = night_order()
    wolves = next(i for i, step in enumerate(order) if step.identity is Identity.WEREWOLF)
    steps = order[:wolves] if before else order[wolves + 1 :]
    named = dict.fromkeys(step.identity for step in steps if config.has(step.identity))
    if _seer_first(config):
        named.pop(Identity.SEER, None)
    texts = (identity_spec(identity).night_text for identity in named)
    return [text for text in texts if text is not None]


def _after_wolves_en(config: GameConfig) -> str:
    after = [text.en for text in _night_texts(config, before=False)]
    if not after:
        return ""
    return "; then " + ", then ".join(after) + (" act" if len(after) > 1 else " acts")


def _after_wolves_zh(config: GameConfig) -> str:
    after = [text.zh for text in _night_texts(config, before=False)]
    return "；随后" + "、".join(after) + "行动" if after else ""


def _wolves_zh(config: GameConfig) -> str:
    rules = ("（可空刀）" if config.allow_empty_kill else "（不可空刀）") + (
        "（可自刀）" if config.wolf_self_knife else "（不可刀狼）"
    )
    if config.wolf_kill is WolfKill.VOTE:
        abstain = "；可弃票，无效投票视为弃票，全部弃票时随机杀死一名存活的非狼人玩家"
        return (
            "狼人各自暗投一名击杀对象"
            + rules
            + "；得票最多者死亡，平票随机决定"
            + (abstain if _wolves_abstain(config) else "")
        )
    return "狼人统一击杀一人" + rules + "；" + _split_zh(config)


def _rules_zh(config: GameConfig) -> str:
    wolves = _count(config, Identity.WEREWOLF)
    gods = "".join(f"、{spec.names.zh}" for spec in _dealt(config))
    lines = [
        f"{config.seats}人局：{wolves}狼{gods}、{_count(config, Identity.VILLAGER)}民。"
        + {
            Reveal.NOTHING: "死者身份不公开。",
            Reveal.TEAM: "玩家死亡时公布其阵营（狼人或好人）。",
            Reveal.IDENTITY: "玩家死亡时公布其身份。",
        }[config.reveal_on_death],
        "夜晚："
        + "".join(text.zh for text in _night_texts(config, before=True))
        + (
            ("预言家同时查验，" if config.has(Identity.DOCTOR) else "预言家先查验，")
            if _seer_first(config)
            else ""
        )
        + _wolves_zh(config)
        + _after_wolves_zh(config)
        + "。天亮公布死者，不公布死因。"
        + ("预言家或医生未给出有效选择时，当晚不行动。" if _idle_night(config) else ""),
    ]
    lines += _lines(config, "zh", early=True)
    tie = {
        TiePolicy.PK: "平票进入PK（平票者发言，其余人重投），再平票则无人出局",
        TiePolicy.NONE: "平票无人出局",
        TiePolicy.RANDOM: "平票随机放逐其中一人",
    }[config.tie_policy]
    if config.all_abstain is AllAbstain.RANDOM:
        tie += "；无人投票时随机放逐一名存活玩家"
    lines.append(
        "白天："
        + ("首夜死者与每位被放逐者有遗言；" if config.last_words else "死者没有遗言；")
        + _discussion_zh(config)
        + "；随后同时投票"
        + ("（可弃票）" if config.allow_abstain else "")
        + ("，可投自己" if config.allow_self_vote else "，不可投自己")
        + f"；{tie}。"
    )
    win = {
        WinRule.SIDE: "屠边：民全死或神全死则狼胜",
        WinRule.TOWN: "屠城：好人全死则狼胜",
        WinRule.PARITY: "狼人数不少于其余存活人数则狼胜",
    }[config.win_rule]
    lines.append(
        f"胜负：狼全死则好人胜；{win}；同时满足时狼胜（狼刀在先）。{config.day_cap}天后平局。"
    )
    if not config.retry_illegal:
        lines.append(
            "回答：无效回答不会被重新询问，立即按默认处理（弃票、不选目标、不用药、沉默）。"
        )
    lines[-2:-2] = _lines(config, "zh", early=False)
    return "\n".join(lines)
