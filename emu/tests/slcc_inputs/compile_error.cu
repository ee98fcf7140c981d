__global__ void k(int *p)
{
    *p = undeclared_name;
}
