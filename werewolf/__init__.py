"""werewolf: the nine-player werewolf game on pulse_core."""
