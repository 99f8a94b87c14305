import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/**
 * The OpenAPI description of DRF PageNumberPagination's two query parameters, for every paged list (the reading
 * itself is `pageRequest` in ./pagination).
 */
export function ApiPageQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'page', required: false, type: Number, description: 'Page number, or "last".' }),
    ApiQuery({
      name: 'page_size',
      required: false,
      type: Number,
      description: 'Default 20, at most 100 (INSPECTION_PAGE_SIZE, INSPECTION_MAX_PAGE_SIZE).',
    }),
  );
}
