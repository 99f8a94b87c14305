import { All, Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type Request } from 'express';
import { requestOrigin } from './drf/pagination';
import { otherMethod, ROOT_METHODS } from './drf/routes';

/** DRF DefaultRouter's API root: links to the four resources (needs authentication, like every view). */
@ApiExcludeController()
@Controller('api')
export class ApiRootController {
  @Get()
  root(@Req() request: Request): Record<string, string> {
    const base = `${requestOrigin(request)}/api/`;
    return {
      devices: `${base}devices/`,
      items: `${base}items/`,
      plans: `${base}plans/`,
      records: `${base}records/`,
    };
  }

  @All()
  other(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Api Root');
  }
}
