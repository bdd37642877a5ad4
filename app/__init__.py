"""Mirrorpost: a play-by-email referee for hidden-information chess variants."""
