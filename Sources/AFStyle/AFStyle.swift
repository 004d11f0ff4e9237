// AFStyle module (in progress)
