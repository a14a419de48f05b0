import { HttpException } from '@nestjs/common';

/** Another customer's id answers exactly like an unknown one. */
export const customerNotFound = () => new HttpException({ error: 'Customer not found' }, 404);
export const badRequest = (error: string) => new HttpException({ error }, 400);
export const notFound = (error: string) => new HttpException({ error }, 404);
