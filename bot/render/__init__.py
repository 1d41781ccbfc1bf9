"""Turn events and state into neutral messages (title, lines, fields) in one locale.

Front ends only choose the last step: a Discord embed (cogs) or plain text (console).
"""

from bot.render.message import Field, Message, to_text

__all__ = ["Field", "Message", "to_text"]
