"""How each variant reads and looks to a player: presenters, the neutral diagram model and its renderers."""
