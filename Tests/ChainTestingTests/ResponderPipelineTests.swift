import ChainTesting
import Testing
