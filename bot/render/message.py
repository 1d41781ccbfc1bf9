"""The neutral message every front end renders: Discord turns it into an embed, the console into text."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic import Field as PydanticField


class Field(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    value: str
    inline: bool = False


class Message(BaseModel):
    """`private_to` names the one player who may see it (a hand); None means the whole channel."""

    model_config = ConfigDict(frozen=True)

    title: str | None = None
    lines: list[str] = PydanticField(default_factory=list)
    fields: list[Field] = PydanticField(default_factory=list)
    private_to: str | None = None


def to_text(message: Message) -> str:
    """Plain text for a terminal: the title underlined, the lines, then each field as a block."""
    out: list[str] = []
    if message.title:
        out += [message.title, "─" * min(40, max(8, len(message.title) * 2))]
    out += message.lines
    for field in message.fields:
        out.append(f"【{field.name}】")
        out += [f"  {row}" for row in field.value.splitlines()]
    return "\n".join(out)
