"""The private reasoning (the god view's "thinks" lines), in English and Chinese: the same
mind, two renderings. One phrasing per key (a thought is read, not heard, and need not
vary); ``{a}``/``{b}`` are seats, ``{n}`` a number, ``{p}`` a probability, ``{rest}``
another rendered thought."""

from __future__ import annotations

__all__ = ["THOUGHTS", "think", "thoughts_in"]

THOUGHTS: dict[str, tuple[str, str]] = {
    # beliefs
    "p.wolf": ("P(wolf) {rest}", "狼概率 {rest}"),
    "p.seat": ("{a}={p}", "{a}号={p}"),
    "and": ("{a}; {rest}", "{a}；{rest}"),
    # the good side's day
    "good.vote": ("vote seat {a}", "投{a}号"),
    "good.no_read": ("no read", "没有把握，不点人"),
    "vote.follow_seer": (
        "the seer named seat {a}, as my speech allowed",
        "预言家报了{a}号查杀，发言里说过跟预言家",
    ),
    "vote.sheriff": ("the sheriff I trust called seat {a}", "我信得过的警长归票{a}号，跟着投"),
    "vote.as_said": ("seat {a}, as I said: {rest}", "按我发言说的投{a}号：{rest}"),
    # the seer
    "seer.check": ("check seat {a}: {rest}", "验{a}号：{rest}"),
    "seer.speaks": ("I speak as the seer", "我以预言家身份发言"),
    "seer.found": ("I found a wolf", "我验到了狼"),
    "seer.rival": ("someone else claims my role", "有人冒充我的身份"),
    "seer.pk": ("I am up for exile", "我上了PK台"),
    "seer.pressed": ("the table turns on me", "大家开始踩我"),
    "seer.time": ("time to share my checks", "该把验人结果亮出来了"),
    # the witch, the hunter, the protectors, cupid
    "witch.none": ("no witch options", "没有可用的药"),
    "witch.save.cleared": ("save seat {a}: a cleared seat", "救{a}号：验过的好人"),
    "witch.save.night": ("save seat {a}: night {n}", "救{a}号：第{n}晚"),
    "witch.poison": ("poison seat {a}: {rest}", "毒{a}号：{rest}"),
    "witch.keep": ("no potion tonight: {rest}", "今晚不用药：{rest}"),
    "hunter.hold": ("nobody likely enough", "没有足够像狼的人，不开枪"),
    "hunter.shoot": ("shoot seat {a}: {rest}", "带走{a}号：{rest}"),
    "guard.empty": (
        "night 1: nobody, so the witch's antidote cannot clash",
        "首夜空守，免得和女巫的解药撞上",
    ),
    "protect.seer": ("protect seat {a}, the seer I believe", "守{a}号，我信的预言家"),
    "protect.self.guard": (
        "protect myself: the wolves may have guessed me",
        "守自己：狼人可能猜到我了",
    ),
    "protect.self.doctor": ("protect myself: a doctor is worth keeping", "保自己：医生值得留着"),
    "protect.nobody": ("no one else I may protect", "没有别人可以守"),
    "protect.trusted": ("protect seat {a}: {rest}", "守{a}号：{rest}"),
    "cupid.self": ("I link myself: one lover I can be sure of", "连自己：至少有一个情侣我能确定"),
    "cupid.draw": (
        "seat {a} as a lover: a draw, I know nothing yet",
        "连{a}号：随手一连，还什么都不知道",
    ),
    "lover.spare": ("{rest}; not my lover", "{rest}；不能是我的情侣"),
    "lover.never": ("{rest}; but never my lover, seat {a}", "{rest}；但绝不动我的情侣{a}号"),
    # bidding for the floor
    "bid": ("bid {n}: {rest}", "抢麦{n}：{rest}"),
    "bid.first": ("not heard yet today", "今天还没发言"),
    "bid.again": ("already spoke today", "今天已经发过言"),
    "bid.sure": ("sure of seat {a}", "认定{a}号是狼"),
    "bid.seer": ("a seer with checks to tell", "预言家有验人结果要报"),
    "bid.yield": ("let others speak", "让别人先说"),
    # the wolves' day
    "wolf.counter": ("counter the seer who named me", "反打查杀我的预言家"),
    "wolf.back": ("back our seer seat {a}", "帮我们的假预言家{a}号站边"),
    "wolf.doubt": ("doubt the seer seat {a}", "质疑预言家{a}号"),
    "wolf.behind": ("blend in behind seer seat {a}", "站边预言家{a}号，藏在好人里"),
    "wolf.bus": (
        "sell out seat {a}: the table has convicted that seat",
        "倒钩{a}号：大家已经认定他了",
    ),
    "wolf.push": ("push seat {a}", "推{a}号"),
    "wolf.blend": ("blend in", "藏在好人里"),
    "wolf.fake": ("I play the seer for the wolves", "我替狼队悍跳预言家"),
    "wolf.frame": (
        "I play the seer for the wolves; frame seat {a}",
        "我替狼队悍跳预言家，给{a}号发查杀",
    ),
    "wolf.as_said": ("seat {a}, as I said", "按我发言说的投{a}号"),
    "wolf.doomed": ("seat {a} is doomed: I vote with the table", "{a}号保不住了，我跟大家投"),
    "wolf.abstain": ("only fellow wolves to vote for: abstain", "能投的只有队友：弃票"),
    "wolf.forced": ("forced to vote for a fellow wolf", "只能投给队友"),
    "wolf.pack": ("seat {a}, with my fellow wolf", "投{a}号，跟狼队友一起"),
    "wolf.suspect": ("push seat {a}, the table's suspect", "推{a}号，大家怀疑的人"),
    # the wolves' night
    "night.prefer": ("I prefer seat {a} to seat {b}", "比起{b}号，我更想刀{a}号"),
    "night.follow_none": ("I follow seat {a}: no kill", "跟{a}号：今晚空刀"),
    "night.follow": ("I follow seat {a}: seat {b}", "跟{a}号：刀{b}号"),
    "night.proposal": ("my proposal, for the pack: {rest}", "我给狼队的提议：{rest}"),
    "night.join": ("joining seat {a}'s proposal", "跟{a}号的提议"),
    "night.join_ballot": ("the same ballot as seat {a}", "跟{a}号投同一个人"),
    "night.as_said": ("seat {b}, as seat {a} proposed", "刀{b}号，按{a}号的提议"),
    "night.own": ("my own pick", "我自己选的"),
}


# key -> phrasing, language by language: a turn thinks many thoughts in one language
_EN = {key: en for key, (en, _) in THOUGHTS.items()}
_ZH = {key: zh for key, (_, zh) in THOUGHTS.items()}


def thoughts_in(lang: str) -> dict[str, str]:
    """Every thought's phrasing in ``lang`` (Chinese for "zh", else English)."""
    return _ZH if lang == "zh" else _EN


def think(lang: str, key: str, **fields: object) -> str:
    """The thought ``key`` in ``lang`` (Chinese for "zh", else English)."""
    return thoughts_in(lang)[key].format_map(fields)
