// Cache module (in progress)
