"""A question with several parts, cut into its parts: sentences, and clauses joined by words such as
「あと」「それと」 or "and also", so each part can be given a passage of its own."""

from __future__ import annotations

import re

# A question quoted whole and followed by a space (a viewer's 「…？」 read out): a sentence ends after it,
# not after one the sentence goes on from (「…？」とある). Its question mark may be hidden (`_HIDE`).
_QUOTED_QUESTION_END = r"(?<=[？?\ue001\ue002][」』])\s+"
# A laugh typed at a sentence's end (草, 笑, ｗ, w after Japanese) and a space: the next sentence starts
# there (…逆だと思ってたわ草 てか…), as after a full stop.
_LAUGH_END = r"(?:(?<=[草笑ｗ])|(?<=[^\x00-\x7f]w)|(?<=ww))[ \u3000]+(?=[^\x00-\x7f])"
# Sentence ends, and the words that start another question inside one sentence.
_CUT = re.compile(
    r"(?<=[？?！!。])\s*"
    rf"|{_QUOTED_QUESTION_END}"
    rf"|{_LAUGH_END}"
    r"|(?<=[a-z0-9)'\"’”][.])\s+(?=[A-Z])"
    r"|\n+"
    r"|(?<=[、,。？?！!\s])(?:あと|それと(?!も)|それから|ついでに|あとは|さらに|ちなみに|それに|もう一つ|もうひとつ)[、,]?"
    r"|[;；]\s*"
    r"|,\s*(?:and also|and then|also|plus)\s+|\s+and also\s+"
    r"|,?\s+and\s+(?=(?:how|what|when|where|who|which|why|does|do|is|are|can|must|should)\s+\S+\s+\S)",
    re.IGNORECASE,
)
MIN_PART_CHARS = 6  # shorter pieces ("Lorcana:", "ロルカナで") belong to the part beside them
# A list's number alone (2., (2), Q2:, ②): the start of the question after it.
_NUMBER = re.compile(r"\W*(?:[qQＱ]\s*)?(?:\d{1,2}|[①-⑳])\W*")
MAX_PARTS = 4


# A card's text quoted in the question (「…する。そうしたなら…」) is one piece of it, and so is a short
# aside in brackets (ハートのすうじ（HP？）が0になったら): their sentence ends are hidden while cutting.
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|（[^（）]{0,20}）|\([^()]{0,20}\)")
_HIDE = str.maketrans("。？?！!.", "\ue000\ue001\ue002\ue003\ue004\ue005")
_SHOW = str.maketrans("\ue000\ue001\ue002\ue003\ue004\ue005", "。？?！!.")


def _hide_quoted(text: str) -> str:
    """The text with the sentence ends inside quotes and short brackets hidden (`_SHOW` shows them)."""
    return _QUOTED.sub(lambda m: m.group().translate(_HIDE), text)


def split_parts(question: str) -> list[str]:
    """The parts of a question; one part when it asks one thing."""
    text = _hide_quoted(question[:1000])
    pieces = [p.strip().translate(_SHOW) for p in _CUT.split(text) if p and p.strip()]
    parts: list[str] = []
    number = ""  # a list's number cut off the question it numbers ("…phase? 2. do skills…")
    for piece in pieces:
        if _NUMBER.fullmatch(piece):
            number = f"{number} {piece}".strip()
            continue
        piece, number = f"{number} {piece}".strip(), ""
        if parts and (len(piece) < MIN_PART_CHARS or len(parts[-1]) < MIN_PART_CHARS):
            parts[-1] = f"{parts[-1]} {piece}"
        else:
            parts.append(piece)
    if number and parts:
        parts[-1] = f"{parts[-1]} {number}"
    # More parts than are searched ("FAQ draft. Please confirm: 1. … 2. … 3. …"): a part that only
    # sets the scene joins the one before it (the first, the one after), so the last questions are
    # not the ones cut off.
    at = len(parts) - 1
    while len(parts) > MAX_PARTS and at >= 0:
        if asks(parts[at]):
            at -= 1
        elif at:
            parts[at - 1 : at + 1] = [f"{parts[at - 1]} {parts[at]}"]
            at -= 1
        else:
            parts[0:2] = [f"{parts[0]} {parts[1]}"]
    return parts[:MAX_PARTS] if len(parts) > 1 else [question]


# How a part that asks something ends or begins: a question mark, a Japanese question ending, an
# English question word or auxiliary first.
_ASKS = re.compile(
    r"[？?][」』]?\s*$"
    r"|(?:の|か|かな|っけ|かい|だろう|でしょう|ですか|ますか|ません|いい|よい|できる|なる|どう|何|なに|誰|いつ|どこ|教えて|ください|知りたい)"
    r"[。.！!\s]*$"
    r"|^\W*(?:how|what|when|where|who|which|why|does|do|did|is|are|can|could|must|should|would|will|if)\b",
    re.IGNORECASE,
)


_SENTENCE = re.compile(rf"(?<=[？?！!。])\s*|{_QUOTED_QUESTION_END}")


def asks(part: str) -> bool:
    """Whether a part of a question asks something, rather than only setting the scene: any of its
    sentences does (a part joined of several, "フェイズは何個ありますか？ 後は忘れました。", asks)."""
    sentences = _SENTENCE.split(_hide_quoted(part))  # a quoted card text's sentences are not the part's
    return any(_ASKS.search(s.strip().translate(_SHOW)) for s in sentences if s.strip())
