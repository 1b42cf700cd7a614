"""The encounter rules' (seed 004) campaign side: the round-by-round tracker."""
