// Chain module (in progress)
