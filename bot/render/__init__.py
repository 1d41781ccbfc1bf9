"""Turn events and state into neutral messages (title, lines, fields) in one locale.

Front ends only choose the last step: a Discord embed (cogs) or plain text (console).

    render_board(state, locale)              the public table
    status_lines(state, locale)              who must act now, or how the game ended
    render_events(events, before, locale)    the public log lines of what just happened
    render_hand(state, seat, locale)         one player's hand, marked private to them
    render_deck_top(state, seat, n, locale)  the top n cards of their deck, private to them
    render_help(command, locale)             /help, or what one command's options mean
"""

from bot.render.board import option_lines, render_board, status_lines
from bot.render.events import render_events, render_log
from bot.render.hand import render_deck_top, render_hand
from bot.render.help import render_help
from bot.render.message import Field, Message, to_text
from bot.render.names import Names, card_label

__all__ = [
    "Field",
    "Message",
    "Names",
    "card_label",
    "option_lines",
    "render_board",
    "render_deck_top",
    "render_events",
    "render_hand",
    "render_help",
    "render_log",
    "status_lines",
    "to_text",
]
