"""Two players on two terminals, one game: a host referees, seats keep replicas (docs/NETPLAY.md)."""
