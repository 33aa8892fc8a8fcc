// placeholder while building HomeHub
