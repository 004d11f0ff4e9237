// FastJSON module (in progress)
