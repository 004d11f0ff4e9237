// Digest module (in progress)
