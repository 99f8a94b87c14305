import {
  All,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Req,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { type Request } from 'express';
import { type SerializerInfo } from './metadata';
import { notFound } from './exceptions';
import { type Input } from './serializer';
import { DrfRenderer } from './json-renderer';
import { Body, type RequestInput } from './request-input';
import { DETAIL_METHODS, LIST_METHODS, otherMethod, postActions, putActions } from './routes';

/**
 * A detail route's `{id}` as Django's URL pattern and `get_object_or_404` take it: the route matches any segment,
 * and anything that is not an id PostgreSQL's `integer` holds is a 404 (never a 500).
 */
export function parseId(text: string): number {
  if (!/^\d{1,10}$/.test(text)) throw notFound();
  const id = Number(text);
  if (id < 1 || id > 2_147_483_647) throw notFound();
  return id;
}

/** What a DRF ModelViewSet-like resource needs from its service (JSON, urlencoded or multipart input). */
export interface ResourceService {
  findOne(id: number): Promise<unknown>;
  create(readInput: () => Input): Promise<unknown>;
  update(id: number, readInput: () => Input, partial: boolean): Promise<unknown>;
  remove(id: number): Promise<void>;
}

export interface ResourceRoutesOptions {
  /** DRF's view name stem: `Device` → "Device List" / "Device Instance" in OPTIONS answers. */
  name: string;
  /** The serializer description for OPTIONS (`actions.POST` / `actions.PUT`). */
  info: SerializerInfo;
  /** OpenAPI: the representation and the writable input. */
  representation: Type<unknown>;
  input: Type<unknown>;
  createSummary?: string;
  removeSummary: string;
}

/** The handlers ResourceRoutes adds (Nest calls them; `DrfRenderer` sends what they return). */
export interface ResourceHandlers {
  create(body: RequestInput): Promise<unknown>;
  listOther(request: Request): Promise<object>;
  findOne(id: string): Promise<unknown>;
  replace(id: string, body: RequestInput): Promise<unknown>;
  modify(id: string, body: RequestInput): Promise<unknown>;
  remove(id: string): Promise<void>;
  detailOther(id: string, request: Request): Promise<object>;
}

/**
 * The routes every ModelViewSet-like resource shares, after the subclass's own `GET` list (Nest registers a
 * subclass's methods before its base's, so the list comes first and the catch-alls last): create, retrieve,
 * replace, partial update, delete, and the OPTIONS / 405 catch-alls of the list and detail paths. Every
 * handler of the resource controller, its own list included, answers through `DrfRenderer`.
 */
export function ResourceRoutes(
  options: ResourceRoutesOptions,
): new (resource: ResourceService) => ResourceHandlers {
  const { name, info, representation, input } = options;

  @UseInterceptors(DrfRenderer)
  class ResourceRoutesBase implements ResourceHandlers {
    constructor(private readonly resource: ResourceService) {}

    @Post()
    @ApiOperation({ summary: options.createSummary ?? `Create a ${name.toLowerCase()}` })
    @ApiBody({ type: input })
    @ApiCreatedResponse({ type: representation })
    create(@Body() body: RequestInput): Promise<unknown> {
      return this.resource.create(() => body.read());
    }

    @All()
    @ApiExcludeEndpoint()
    listOther(@Req() request: Request): Promise<object> {
      return otherMethod(request, LIST_METHODS, `${name} List`, postActions(info));
    }

    @Get(':id')
    @ApiOperation({ summary: `Read a ${name.toLowerCase()}` })
    @ApiOkResponse({ type: representation })
    findOne(@Param('id') id: string): Promise<unknown> {
      return this.resource.findOne(parseId(id));
    }

    @Put(':id')
    @ApiOperation({ summary: `Replace a ${name.toLowerCase()}` })
    @ApiBody({ type: input })
    @ApiOkResponse({ type: representation })
    replace(@Param('id') id: string, @Body() body: RequestInput): Promise<unknown> {
      return this.resource.update(parseId(id), () => body.read(), false);
    }

    @Patch(':id')
    @ApiOperation({ summary: `Update some fields of a ${name.toLowerCase()}` })
    @ApiBody({ type: input, description: 'Any subset of the fields.' })
    @ApiOkResponse({ type: representation })
    modify(@Param('id') id: string, @Body() body: RequestInput): Promise<unknown> {
      return this.resource.update(parseId(id), () => body.read(), true);
    }

    @Delete(':id')
    @HttpCode(204)
    @ApiOperation({ summary: options.removeSummary })
    @ApiNoContentResponse()
    remove(@Param('id') id: string): Promise<void> {
      return this.resource.remove(parseId(id));
    }

    @All(':id')
    @ApiExcludeEndpoint()
    detailOther(@Param('id') id: string, @Req() request: Request): Promise<object> {
      const actions = putActions(info, () => this.resource.findOne(parseId(id)));
      return otherMethod(request, DETAIL_METHODS, `${name} Instance`, actions);
    }
  }
  return ResourceRoutesBase;
}
