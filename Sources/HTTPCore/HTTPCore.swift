// HTTPCore (in progress)
