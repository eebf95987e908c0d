"""Nain Jaune played many times: bots against bots, bulk simulation on the compiled kernel,
the readable engine's simulated game, tournaments and the oracle peer."""
