int scale(int x);
