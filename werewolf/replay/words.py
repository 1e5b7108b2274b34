"""The terminal drawing's words in the game's language: each English phrase the drawing
prints (a template: ``{n}`` and the like are filled in after) and its Chinese. A zh game is
drawn in Chinese; an English one uses the phrases as written, so its drawing never changes.
Identity names come from the registry (``IdentitySpec.names``), death causes from the
events that declare them, and neither is repeated here."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pulse_core import Event

from ..registry import identity_specs

__all__ = ["game_lang", "identity_name", "outcome_text", "result_line", "word"]

_ZH: Mapping[str, str] = {
    # the header and the cast
    "Werewolf, {game}{seed}": "狼人杀，{game}{seed}",
    "game {id}": "对局 {id}",
    "a game": "一局",
    " (seed {seed})": "（种子 {seed}）",
    "Shown: {view}{whoami}": "视角：{view}{whoami}",
    " ({name}, the {identity})": "（{name}，{identity}）",
    "seat {n}'s view": "{n} 号位视角",
    "god view": "上帝视角",
    "public view": "公开视角",
    "standard nine": "标准九人局",
    "board {name}": "板子 {name}",
    "custom deck": "自定义牌组",
    "{board}, {seats} seats": "{board}，{seats} 人",
    "win rule: {rule}": "胜利规则：{rule}",
    "{rule}: {value}": "{rule}：{value}",
    "on": "开",
    "off": "关",
    # the rule variants' names (GameConfig's fields), as a zh header lists them
    "sheriff": "警长竞选",
    "sheriff weight": "警长票权",
    "sheriff pk": "警长竞选 PK",
    "badge tear": "可撕警徽",
    "self destruct": "自爆",
    "self destruct last words": "自爆留遗言",
    "second destruct loses badge": "二次自爆警徽流失",
    "referee record": "裁判记录",
    "day cap": "天数上限",
    "last words": "遗言",
    "beliefs": "信念报告",
    "allow abstain": "可弃票",
    "allow self vote": "可投自己",
    "witch self save": "女巫自救",
    "witch both potions": "女巫同夜双药",
    "guard repeat": "守卫连守",
    "guard self": "守卫自守",
    "seer before wolves": "预言家先于狼人",
    "speech rounds": "发言轮数",
    "tie policy": "平票处理",
    "reveal on death": "死亡亮牌",
    "side": "屠边",
    "town": "屠城",
    "parity": "狼人数不少于其他人",
    "Cast": "角色",
    "Players": "玩家",
    "Cast, revealed": "角色揭晓",
    "Seat": "座位",
    "Name": "名字",
    "Role": "身份",
    "Team": "阵营",
    "Fate": "结局",
    "alive": "存活",
    "wolves": "狼人阵营",
    "good": "好人阵营",
    "Night {n}": "第 {n} 夜",
    "Day {n}": "第 {n} 天",
    "nobody": "无人",
    ", ": "、",
    " (": "（",
    ")": "）",
    ".": "。",
    ": ": "：",
    ":": "：",
    # speeches, reasoning, fallbacks
    " thinks ({decision}): ": " 想（{decision}）：",
    ": {decision} fell back to the default after refused answers ({reason}; {key})": (
        "：{decision} 的回答被拒，改用默认（{reason}；{key}）"
    ),
    "no reason": "无原因",
    # the decisions a thought or a fallback is about (werewolf.decisions.DecisionKind)
    "wolf-talk": "狼人商议",
    "wolf-kill": "狼人刀人",
    "witch": "女巫用药",
    "seer": "查验",
    "hunter": "猎人开枪",
    "speech": "发言",
    "last-words": "遗言",
    "vote": "投票",
    "guard": "守护",
    "doctor": "医治",
    "cupid": "连情侣",
    "bid": "竞价",
    "knight": "决斗",
    "Last words of ": "遗言：",
    "PK speech of ": "PK 发言：",
    # the night
    "The wolves": "狼人",
    ") talk:": "）商议：",
    ") vote: ": "）投票：",
    "Proposals, round {n}: ": "第 {n} 轮提议：",
    "Target: ": "目标：",
    "abstain": "弃票",
    " (every wolf abstained: drawn at random among ": "（所有狼人弃票：随机抽取自 ",
    " (a tie between ": "（平票：",
    ", drawn at random)": "，随机抽取）",
    "The witch": "女巫",
    " was told the victim: ": "得知被刀者：",
    " learned no victim": "未得知被刀者",
    "saves ": "救 ",
    "poisons ": "毒 ",
    " and ": " 和 ",
    "uses no potion": "不用药",
    "; she ": "；她",
    "The seer": "预言家",
    " checks nobody.": "没有查验。",
    " checks ": "查验 ",
    "a WOLF": "狼人",
    "the {identity} (": "{identity}（",
    "The guard": "守卫",
    "The doctor": "医生",
    " protects ": "守护 ",
    " learns her protection saved ": "得知她的守护救下了 ",
    "Cupid": "丘比特",
    " links ": "将 ",
    " as lovers.": " 连为情侣。",
    "The lovers": "情侣",
    " learn of each other": " 得知彼此",
    " learn of each other, with their cards.": " 得知彼此及其身份。",
    " learn of each other.": " 得知彼此。",
    # the day
    "Dawn.": "天亮了。",
    " A peaceful night: nobody died.": "平安夜：无人死亡。",
    " Died in the night: ": "昨夜死亡：",
    "a wolf": "狼人",
    "the {identity}": "{identity}",
    "Revealed: ": "揭晓：",
    " was {told}.": " 是{told}。",
    "Bids for speech {n}: ": "第 {n} 次发言竞价：",
    " speaks.": " 发言。",
    "The hunter": "猎人",
    " keeps the bullet.": " 不开枪。",
    " shows the hunter card and shoots ": " 亮出猎人牌，开枪带走 ",
    " dies of heartbreak.": " 殉情而死。",
    " shows the {identity} card and shoots ": " 亮出{identity}牌，开枪带走 ",
    " interrupts the day: self-destructs": " 打断发言：自爆",
    " interrupts the election: self-destructs": " 警上自爆，竞选中止",
    ", to take ": "，要带走 ",
    " reveals a wolf and self-destructs": " 自爆，亮明狼人身份",
    " reveals the white wolf king and self-destructs, taking ": " 亮出白狼王牌自爆，带走 ",
    "; the day ends without a vote.": "；当天不再投票，直接进入黑夜。",
    "Day {n} vote": "第 {n} 天投票",
    "Day {n} PK re-vote": "第 {n} 天 PK 重投",
    "Votes": "票数",
    "Against": "被投",
    "Voters": "投票者",
    "(abstained)": "（弃票）",
    "Tie between ": "平票：",
    ": a PK round follows.": "：进入 PK。",
    " is exiled, reveals the idiot card and stays alive (no vote).": (
        " 被放逐，翻开白痴牌，存活（失去投票权）。"
    ),
    " is exiled.": " 被放逐。",
    "Nobody is exiled.": "无人被放逐。",
    "a tie between ": "平票：",
    "nobody voted; drawn among ": "无人投票；抽取自 ",
    ", drawn at random).": "，随机抽取）。",
    "Day {n} beliefs: P(wolf) reported with the vote": "第 {n} 天信念：随投票报告的 P(狼)",
    "By": "报告者",
    "The wolves win": "狼人阵营获胜",
    "The good side wins": "好人阵营获胜",
    "A draw": "平局",
    "Cupid and the lovers win": "丘比特与情侣获胜",
    "Survivors: ": "存活者：",
    "{headline}: {reason}.": "{headline}：{reason}。",
    "Result, day {n}": "结果，第 {n} 天",
    "Seat swap: ": "换人：",
    " is now played by {to} (was {was}).": " 现由 {to} 操作（原为 {was}）。",
    "! The game stopped: phase {role} failed: {note}": "! 对局中止：阶段 {role} 失败：{note}",
    "The game was resumed.": "对局已继续。",
    "({phase}: an event this version does not draw)": "（{phase}：此版本不绘制的事件）",
    " shows the {what} card": " 亮出{what}牌",
    ": no effect.": "：无效果。",
    # the sheriff (draw_sheriff)
    "Sheriff election.": "警长竞选。",
    " Running: ": "上警：",
    "Nobody runs: no sheriff.": "无人上警：没有警长。",
    " is elected unopposed.": " 唯一上警，当选警长。",
    "Election speech of ": "竞选发言：",
    "Election PK speech of ": "竞选 PK 发言：",
    "Withdrawn (退水): ": "退水：",
    " is left alone: sheriff.": " 仅剩一人，当选警长。",
    "Nobody left to vote for or to vote: the badge is lost.": "无人可投或无人投票：警徽流失。",
    "Sheriff vote": "警长投票",
    "Sheriff PK re-vote": "警长 PK 重投",
    "For": "投给",
    " is elected sheriff.": " 当选警长。",
    ": they speak again, then a re-vote.": "：再次发言后重投。",
    "No sheriff: the badge is lost.": "没有警长：警徽流失。",
    "The sheriff": "警长",
    " tears the badge.": " 撕掉警徽。",
    " passes the badge to ": " 把警徽移交给 ",
    "to the left": "向左（逆序）",
    "to the right": "向右（顺序）",
    ") has ": "）指定 ",
    " speak first, {way}, and speaks last.": " 首先发言，{way}，警长最后归票。",
    " (sheriff, ×{weight})": "（警长，×{weight}）",
    # the replay around the entries
    "(jumped to night {n}: earlier events are not shown)": "（跳到第 {n} 夜：之前的事件未显示）",
    "\nThe log ends here: the game is not over (werewolf resume {id}).": (
        "\n日志到此为止：对局尚未结束（werewolf resume {id}）。"
    ),
    # the summary (werewolf.replay.stats)
    "Summary": "统计",
    "Votes on wolves": "投中狼人",
    "Suspected": "被怀疑",
    "Fallbacks": "回退",
    "Tokens": "令牌",
    "no": "否",
    "yes ({votes} votes)": "是（{votes} 票）",
    "No LLM seats played: no tokens were used.": "没有大模型座位参与：未使用令牌。",
    "LLM usage: {calls} calls, {prompt} prompt and {completion} completion tokens": (
        "LLM 用量：{calls} 次调用，{prompt} 提示令牌与 {completion} 补全令牌"
    ),
    ", costing about ${cost}": "，约 ${cost}",
    " (give prices for a cost: --price or --prices)": "（给出价格可算费用：--price 或 --prices）",
    # why a game ended (werewolf.phases.end.outcome_reason)
    "every wolf is dead": "所有狼人死亡",
    "only cupid and the lovers are left": "只剩丘比特与情侣",
    "the wolves are as many as everyone else": "狼人数量不少于其他人",
    "every good player is dead": "所有好人死亡",
    "every villager is dead": "所有平民死亡",
}

_REASONS = (  # the reasons with a list or a number in them
    (re.compile(r"the day cap of (\d+) days was reached"), "达到 {0} 天的天数上限"),
    (
        re.compile(r"every other god \(([^)]*)\) is dead and the idiot is revealed"),
        "其他所有神职（{0}）死亡且白痴已翻牌",
    ),
    (re.compile(r"every god \(([^)]*)\) is dead"), "所有神职（{0}）死亡"),
)


def result_line(winner: object, reason: str | None, lang: str) -> str:
    """The one line a finished game's result is told in: who won and why."""
    headline = {"wolves": "The wolves win", "good": "The good side wins"}.get(str(winner), "A draw")
    return word(
        "{headline}: {reason}.",
        lang,
        headline=word(headline, lang),
        reason=outcome_text(reason or "", lang),
    )


def game_lang(chain: Sequence[Event]) -> str:
    """The language a game was played in (its start event's ``lang``; en when none)."""
    game = chain[0].meta.get("game", {}) if chain else {}
    return "zh" if isinstance(game, Mapping) and game.get("lang") == "zh" else "en"


def word(text: str, lang: str, **values: object) -> str:
    """``text`` in ``lang``, its ``{names}`` filled with ``values``."""
    chosen = _ZH.get(text, text) if lang == "zh" else text
    return chosen.format(**values) if values else chosen


def identity_name(identity: str, lang: str) -> str:
    """An identity's name in ``lang`` (the registry's); an unknown one as written."""
    names = {str(spec.identity): spec.names(lang) for spec in identity_specs()}
    return names.get(identity, identity)


def outcome_text(reason: str, lang: str) -> str:
    """Why a game ended (``outcome_reason``'s words) in ``lang``, identity lists included."""
    if lang != "zh":
        return reason
    if reason in _ZH:
        return _ZH[reason]
    for pattern, zh in _REASONS:
        found = pattern.fullmatch(reason)
        if found is not None:
            listed = "、".join(identity_name(n.strip(), lang) for n in found.group(1).split(","))
            return zh.format(listed)  # a number is a list of one
    return reason
